/**
 * `npm run test:reliability`: the faults a deployment meets (the worker killed mid-booking, PostgreSQL and Redis
 * restarted, the service down, bad webhooks), with figures (docs/developing.md). RECORD=1 writes RELIABILITY.md.
 */
import { type ChildProcess } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Pool } from "undici"
import { Client } from "@medusajs/framework/pg"
import { LastmileSimulator, londonLocations } from "../../packages/simulator/src"
import { Checks, bookedOrderOf, inParallel, sleep, until } from "./lib/harness"
import {
  CLUSTER_APP,
  hostEnv,
  logTails,
  prepareHostApp,
  startInstance,
  startProcess,
  stopProcess,
  waitForHealth,
} from "./lib/host-app"
import { MedusaHttp, adminLogin, placeDeliveryOrder, setUpStoreOverHttp } from "./lib/http-store"
import { recordSection } from "./lib/reliability-report"

const say = (line: string) => process.stdout.write(`reliability: ${line}\n`)
const ADMIN = { email: "ops@example.com", password: "reliability-password" }
const API_KEY = "reliability_key_0123456789"
const WEBHOOK_SECRET = "reliability-hook-0123456789"

interface Scenario {
  name: string
  checks: Checks
}
const scenarios: Scenario[] = []

/** Redis of this run's own, on a free port, restartable, its append-only file in `dir`. */
class RedisProcess {
  private child?: ChildProcess
  constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly logFile: string
  ) {}

  async start(): Promise<void> {
    this.child = startProcess(
      "redis-server",
      // As a production Redis runs: with its append-only file, so a restart keeps what it held. A Redis
      // that forgets on restart also forgets Medusa's job schedules (README, Deploying).
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--dir", this.dir],
      { cwd: this.dir, env: process.env, logFile: this.logFile }
    )
    await until("redis-server", 15_000, async () => {
      const { createConnection } = await import("node:net")
      return new Promise<true | undefined>((resolve) => {
        const socket = createConnection(this.port, "127.0.0.1", () => {
          socket.end()
          resolve(true)
        })
        socket.on("error", () => resolve(undefined))
      })
    })
  }

  async stop(): Promise<void> {
    if (this.child) {
      await stopProcess(this.child, "SIGKILL")
    }
  }
}

async function main(): Promise<number> {
  const started = Date.now()
  const work = mkdtempSync(join(tmpdir(), "lastmile-reliability-"))
  // PostgreSQL runs as the postgres user when this runs as root: it must reach its data folder inside.
  chmodSync(work, 0o755)
  const { freePort, startEmbeddedDatabase } = await import("../../scripts/embedded-database.mjs")
  const pg = await startEmbeddedDatabase({ dataDir: join(work, "pg") })
  mkdirSync(join(work, "redis"))
  const redis = new RedisProcess(await freePort(), join(work, "redis"), join(work, "redis.log"))
  await redis.start()
  const ports = { server: await freePort(), worker: await freePort() }
  const serverUrl = `http://localhost:${ports.server}`
  const simulator = new LastmileSimulator({
    config: { apiKey: API_KEY, webhookUrl: `${serverUrl}/hooks/lastmile/${WEBHOOK_SECRET}` },
    locations: londonLocations(["DEMO-TEE"]),
  })
  const simUrl = await simulator.start(0, "127.0.0.1")
  const serverPg = `postgres://${pg.user}:${pg.password}@${pg.host}:${pg.port}`
  {
    const admin = new Client({ connectionString: `${serverPg}/postgres` })
    await admin.connect()
    await admin.query('CREATE DATABASE "lastmile-reliability"')
    await admin.end()
  }
  const databaseUrl = `${serverPg}/lastmile-reliability`
  const redisUrl = `redis://127.0.0.1:${redis.port}`
  // The cluster test's app, reused.
  const env = hostEnv({ REDIS_URL: redisUrl, DATABASE_URL: databaseUrl, ...CLUSTER_APP.env })
  const instances: Record<string, ChildProcess> = {}
  let db: Client | undefined
  try {
    const { serverDir } = await prepareHostApp({
      ...CLUSTER_APP,
      work,
      dotenv: {
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        JWT_SECRET: "reliability-jwt",
        COOKIE_SECRET: "reliability-cookie",
        STORE_CORS: "http://localhost:8000",
        ADMIN_CORS: serverUrl,
        AUTH_CORS: serverUrl,
        LASTMILE_API_KEY: API_KEY,
        LASTMILE_BASE_URL: simUrl,
        LASTMILE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
      env,
      admin: ADMIN,
      log: say,
    })
    const start = async (name: "server" | "worker") => {
      instances[name] = startInstance({ serverDir, env, name, port: ports[name], mode: name, logDir: work })
      await waitForHealth(`http://localhost:${ports[name]}`, 240_000, instances[name])
    }
    await Promise.all([start("server"), start("worker")])
    say(`server and worker up in ${Math.round((Date.now() - started) / 1000)} s`)

    // The harness's own connection dies with PostgreSQL's restart: an error event, not a crash; reconnected below.
    const connect = async () => {
      const client = new Client({ connectionString: databaseUrl })
      client.on("error", () => undefined)
      await client.connect()
      return client
    }
    db = await connect()
    const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
      // The harness's own connection does not survive a PostgreSQL restart: reconnect once.
      try {
        return (await db!.query(sql, params)).rows as T[]
      } catch {
        await db!.end().catch(() => undefined)
        db = await connect()
        return (await db.query(sql, params)).rows as T[]
      }
    }
    const admin = await adminLogin(serverUrl, ADMIN.email, ADMIN.password)
    const store = await setUpStoreOverHttp(admin, ["DEMO-TEE"])
    const shop = new MedusaHttp(serverUrl, { "x-publishable-api-key": store.publishableKey })
    const order = async (tag: string) => (await placeDeliveryOrder(shop, store, `${tag}@example.com`)).id

    /** Simulated time: what the retry job, the stale-booking pass and the poll would find minutes later. */
    const fastForward = async (minutes: number) => {
      const shift = `interval '${minutes} minutes'`
      await query(`UPDATE lastmile_task SET next_attempt_at = next_attempt_at - ${shift} WHERE status = 'failed'`)
      await query(`UPDATE lastmile_task SET updated_at = updated_at - ${shift} WHERE status IN ('booking', 'pending')`)
      await query(
        `UPDATE lastmile_task SET last_checked_at = last_checked_at - ${shift} WHERE last_checked_at IS NOT NULL`
      )
      await query(`UPDATE "order" SET created_at = created_at - ${shift} WHERE created_at > now() - interval '1 hour'`)
    }
    const tasksOf = (orderIds: string[]) =>
      query<{ order_id: string; status: string; task_id: string | null; tracking_state: string; adopted: boolean }>(
        "SELECT order_id, status, task_id, tracking_state, adopted FROM lastmile_task WHERE order_id = ANY($1) AND deleted_at IS NULL",
        [orderIds]
      )
    /** What a failed check needs to be understood: each unbooked order's task row and lastmile methods. */
    const unbookedDetails = async (orderIds: string[]) =>
      query(
        `SELECT o.id, o.status AS order_status, o.canceled_at, t.status, t.attempts, t.last_error, t.updated_at, t.next_attempt_at,
           (SELECT count(*) FROM order_shipping os WHERE os.order_id = o.id AND os.deleted_at IS NULL) AS shipping_methods
         FROM "order" o LEFT JOIN lastmile_task t ON t.order_id = o.id AND t.deleted_at IS NULL
         WHERE o.id = ANY($1) AND (t.status IS NULL OR t.status <> 'booked')`,
        [orderIds]
      )
    const serviceTasksFor = (orderId: string) => simulator.tasks().filter((t) => t.merchantOrderId === orderId)
    /** Waits until every order has a booked task, fast-forwarding the clock each minute. */
    const allBooked = async (orderIds: string[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs
      let lastForward = Date.now()
      for (;;) {
        const rows = await tasksOf(orderIds)
        const booked = new Set(rows.filter((r) => r.status === "booked").map((r) => r.order_id))
        if (orderIds.every((id) => booked.has(id)) || Date.now() > deadline) {
          return booked.size
        }
        if (Date.now() - lastForward > 20_000) {
          await fastForward(10)
          lastForward = Date.now()
        }
        await sleep(1000)
      }
    }

    // RELIABILITY_ONLY=2,3 runs those scenarios alone (while chasing one); CI runs them all.
    const only = (process.env.RELIABILITY_ONLY ?? "").split(",").filter(Boolean).map(Number)
    const wanted = (scenario: number) => !only.length || only.includes(scenario)

    // 1. SIGKILL between the service's acceptance and the task's record.
    if (wanted(1)) {
      const checks = new Checks(say)
      scenarios.push({
        name: "The worker killed between the service accepting a booking and the task being recorded",
        checks,
      })
      simulator.addFault({ operation: "bookDelivery", kind: "timeout", commit: true, times: 1 })
      const orderId = await order("kill-1")
      await until("the service to accept the booking", 60_000, async () =>
        serviceTasksFor(orderId).length ? true : undefined
      )
      await stopProcess(instances.worker, "SIGKILL")
      const [before] = await tasksOf([orderId])
      checks.record(
        "the worker was killed with the booking accepted and not recorded",
        before?.status !== "booked",
        `task row ${before?.status ?? "absent"}, ${serviceTasksFor(orderId).length} task at the service`
      )
      await start("worker")
      const booked = await allBooked([orderId], 240_000)
      const [after] = await tasksOf([orderId])
      const atService = serviceTasksFor(orderId)
      const lookups = simulator
        .requests("lookupDelivery")
        .filter((r) => Object.values(r.query).includes(orderId)).length
      checks.record(
        "after the restart: 1 task, adopted by lookup",
        booked === 1 &&
          atService.length === 1 &&
          String(after?.task_id) === String(atService[0]?.taskId) &&
          after?.adopted === true,
        `${atService.length} task at the service, Medusa's row ${after?.status} with task ${after?.task_id}, adopted: ${after?.adopted}; ${lookups} lookup(s) by order id, ${simulator.requests("bookDelivery").filter((r) => bookedOrderOf(r) === orderId).length} booking POST(s)`
      )
    }

    // 2. PostgreSQL restarted under load.
    if (wanted(2)) {
      const checks = new Checks(say)
      scenarios.push({ name: "PostgreSQL restarted while orders are placed and webhooks arrive", checks })
      const warm = await Promise.all(["pg-w1", "pg-w2", "pg-w3", "pg-w4"].map(order))
      await allBooked(warm, 60_000)
      const warmTasks = (await tasksOf(warm)).map((t) => String(t.task_id))
      let running = true
      let attempts = 0
      let refused = 0
      const load = (async () => {
        await inParallel(1000, 3, async (i) => {
          if (!running) {
            return
          }
          attempts++
          await order(`pg-${i}`).catch(() => refused++)
        })
      })()
      // Webhooks: the warm tasks move to delivered at the service, one step at a time, across the restart.
      const mover = (async () => {
        for (let step = 0; step < 6; step++) {
          for (const id of warmTasks) {
            await fetch(`${simUrl}/__sim/tasks/${id}/advance`, { method: "POST" }).catch(() => undefined)
          }
          await sleep(2500)
        }
      })()
      await sleep(4000)
      // The service answers bookings slowly meanwhile: bookings are in flight at the service when PostgreSQL
      // goes, so the worker's writes after an accepted booking meet the restart, not only its reads before.
      simulator.addFault({ operation: "bookDelivery", kind: "latency", latencyMs: 1500 })
      await sleep(2000)
      say("PostgreSQL: stopping it for 5 s")
      await pg.pause()
      await sleep(5000)
      await pg.resume()
      say("PostgreSQL: back")
      await mover
      await sleep(8000)
      running = false
      await load
      simulator.clearFaults()
      const placed = (await query<{ id: string }>(`SELECT id FROM "order" WHERE email LIKE 'pg-%'`)).map((r) => r.id)
      const booked = await allBooked(placed, 240_000)
      const atService = placed.map((id) => serviceTasksFor(id).length)
      checks.record(
        "no order without its task once PostgreSQL is back",
        booked === placed.length && atService.every((n) => n === 1),
        `${placed.length} orders in the database (${attempts} attempted, ${refused} refused to the shopper while it was down), ${booked} booked, service tasks per order: max ${Math.max(0, ...atService)}${booked < placed.length ? `; not booked: ${JSON.stringify(await unbookedDetails(placed))}` : ""}`
      )
      const delivered = await until("webhooks' effects", 240_000, async () => {
        const rows = await query<{ tracking_state: string }>(
          "SELECT tracking_state FROM lastmile_task WHERE task_id = ANY($1)",
          [warmTasks]
        )
        if (rows.every((r) => r.tracking_state === "delivered")) {
          return rows.length
        }
        await fastForward(10)
        return undefined
      }).catch(() => 0)
      const failedHooks = simulator.webhooks.attempts.filter((a) => a.status !== 200).length
      checks.record(
        "no webhook effect lost",
        delivered === warmTasks.length,
        `${delivered}/${warmTasks.length} tasks delivered in Medusa as at the service; ${failedHooks} webhook deliveries failed during the restart and were retried or polled`
      )
    }

    // 3. Redis restarted mid-run.
    if (wanted(3)) {
      const checks = new Checks(say)
      scenarios.push({ name: "Redis restarted mid-run", checks })
      const before = await order("redis-before")
      await allBooked([before], 60_000)
      say("Redis: restarting it")
      await redis.stop()
      let during = 0
      const duringOrders: Promise<unknown>[] = []
      for (let i = 0; i < 3; i++) {
        duringOrders.push(
          order(`redis-during-${i}`).then(
            () => during++,
            () => undefined
          )
        )
      }
      await sleep(3000)
      await redis.start()
      await Promise.all(duringOrders)
      const recovered = await until("the instances answering again", 60_000, async () =>
        (await fetch(`${serverUrl}/health`)).ok && (await fetch(`http://localhost:${ports.worker}/health`)).ok
          ? true
          : undefined
      ).catch(() => false)
      const after = await Promise.all(
        ["redis-after-1", "redis-after-2", "redis-after-3"].map((i) => order(i).catch(() => ""))
      )
      const afterIds = after.filter(Boolean)
      const bookedAfter = await allBooked(afterIds, 120_000)
      const [task] = await tasksOf([afterIds[0]])
      for (let step = 0; step < 6; step++) {
        await fetch(`${simUrl}/__sim/tasks/${task.task_id}/advance`, { method: "POST" })
      }
      const tracked = await until("a webhook after the restart", 60_000, async () => {
        const [row] = await tasksOf([afterIds[0]])
        return row.tracking_state === "delivered" ? true : undefined
      }).catch(() => false)
      checks.record(
        "instances recover without a restart of their own",
        Boolean(recovered) && afterIds.length === 3 && bookedAfter === 3 && tracked,
        `health answered again: ${recovered}; ${afterIds.length}/3 orders placed after it, ${bookedAfter} booked; tracking by webhook after it: ${tracked}; same processes (pids ${instances.server.pid}, ${instances.worker.pid})`
      )
      const duringIds = (await query<{ id: string }>(`SELECT id FROM "order" WHERE email LIKE 'redis-during-%'`)).map(
        (r) => r.id
      )
      const bookedDuring = await allBooked(duringIds, 240_000)
      checks.record(
        "orders placed across the restart are booked",
        bookedDuring === duringIds.length,
        `${duringIds.length} in the database (${during} confirmed to the shopper), ${bookedDuring} booked`
      )
    }

    // 4. The service down for 10 simulated minutes while 50 orders are placed.
    if (wanted(4)) {
      const checks = new Checks(say)
      scenarios.push({ name: "The service down for 10 simulated minutes while 50 orders are placed", checks })
      simulator.addFault({ operation: "*", kind: "status", status: 503 })
      const placed: string[] = []
      let fallbackPriced = 0
      await inParallel(50, 4, async (i) => {
        const { id, fallback } = await placeDeliveryOrder(shop, store, `down-${i}@example.com`)
        placed.push(id)
        fallbackPriced += fallback ? 1 : 0
      })
      const whileDown = (await tasksOf(placed)).filter((t) => t.status === "booked").length
      simulator.clearFaults()
      await fastForward(10)
      const booked = await allBooked(placed, 300_000)
      const perOrder = placed.map((id) => serviceTasksFor(id).length)
      checks.record(
        "50 orders placed while the service was down",
        placed.length === 50 && whileDown === 0,
        `${placed.length} placed, ${fallbackPriced} at the fallback price, ${whileDown} booked while down`
      )
      checks.record(
        "all booked once it is back, none twice",
        booked === 50 && perOrder.every((n) => n === 1),
        `${booked}/50 booked; service tasks per order: min ${Math.min(...perOrder)}, max ${Math.max(...perOrder)}`
      )
    }

    // 5. 1,000 webhooks, a third of them bad.
    if (wanted(5)) {
      const checks = new Checks(say)
      scenarios.push({ name: "1,000 webhooks, a third forged, oversized, malformed or replayed", checks })
      const good = await Promise.all(["hook-1", "hook-2", "hook-3", "hook-4"].map(order))
      const target = await order("hook-target")
      await allBooked([...good, target], 60_000)
      const goodTasks = (await tasksOf(good)).map((t) => Number(t.task_id))
      const [targetTask] = await tasksOf([target])
      const targetId = Number(targetTask.task_id)
      // One real event for the target, processed; later its replays are the only posts that name it.
      await fetch(`${serverUrl}/hooks/lastmile/${WEBHOOK_SECRET}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ eventId: "target-1", taskId: targetId, status: { value: "ASSIGNED" } }),
      })
      await sleep(3000)
      // The target is delivered at the service without a webhook: only a processed bad post could tell Medusa.
      simulator.configure({ webhookUrl: undefined })
      await fetch(`${simUrl}/__sim/tasks/${targetId}/status`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ value: "DELIVERED" }),
      })
      await query("UPDATE lastmile_task SET last_checked_at = now() WHERE task_id = $1", [String(targetId)])
      const [targetBefore] = await query<{ tracking_state: string; history: unknown[] | null }>(
        "SELECT tracking_state, status_history->'entries' AS history FROM lastmile_task WHERE task_id = $1",
        [String(targetId)]
      )
      const eventsBefore = Number((await query<{ n: string }>("SELECT count(*) AS n FROM lastmile_webhook_event"))[0].n)

      const kinds = [
        "good",
        "good",
        "forged",
        "good",
        "good",
        "oversized",
        "good",
        "good",
        "malformed",
        "good",
        "good",
        "replayed",
      ]
      const pool = new Pool(serverUrl, { connections: 20 })
      const answers: Record<string, Record<number, number>> = {}
      const sent: Record<string, number> = {}
      await inParallel(1000, 20, async (i) => {
        const kind = kinds[i % kinds.length]
        sent[kind] = (sent[kind] ?? 0) + 1
        const valid = `/hooks/lastmile/${WEBHOOK_SECRET}`
        const event = { eventId: `blast-${i}`, taskId: goodTasks[i % goodTasks.length], status: { value: "ASSIGNED" } }
        const { path, body } =
          kind === "forged"
            ? {
                path: `/hooks/lastmile/${WEBHOOK_SECRET.slice(0, -1)}x`,
                body: JSON.stringify({ ...event, taskId: targetId }),
              }
            : kind === "oversized"
              ? { path: valid, body: JSON.stringify({ ...event, taskId: targetId, padding: "x".repeat(70_000) }) }
              : kind === "malformed"
                ? { path: valid, body: `{"taskId": ${targetId}, "status": ` }
                : kind === "replayed"
                  ? {
                      path: valid,
                      body: JSON.stringify({ eventId: "target-1", taskId: targetId, status: { value: "DELIVERED" } }),
                    }
                  : { path: valid, body: JSON.stringify(event) }
        // 0: the server closed the connection before taking the whole body (an oversized post may end so).
        const status = await pool
          .request({ method: "POST", path, headers: { "content-type": "application/json" }, body })
          .then(async (response) => {
            await response.body.dump()
            return response.statusCode
          })
          .catch(() => 0)
        answers[kind] = answers[kind] ?? {}
        answers[kind][status] = (answers[kind][status] ?? 0) + 1
      })
      await pool.close()
      simulator.configure({ webhookUrl: `${serverUrl}/hooks/lastmile/${WEBHOOK_SECRET}` })
      await sleep(10_000)
      const [targetAfter] = await query<{ tracking_state: string; history: unknown[] | null }>(
        "SELECT tracking_state, status_history->'entries' AS history FROM lastmile_task WHERE task_id = $1",
        [String(targetId)]
      )
      const stored = await query<{ status: string; n: string }>(
        "SELECT status, count(*) AS n FROM lastmile_webhook_event WHERE created_at > now() - interval '5 minutes' GROUP BY status"
      )
      const eventsAfter = Number((await query<{ n: string }>("SELECT count(*) AS n FROM lastmile_webhook_event"))[0].n)
      const bad = 1000 - (sent.good ?? 0)
      const stateChanges =
        (targetAfter.tracking_state !== targetBefore.tracking_state ? 1 : 0) +
        Math.max(0, (targetAfter.history?.length ?? 0) - (targetBefore.history?.length ?? 0))
      checks.record(
        "bad posts refused or recorded, never applied",
        stateChanges === 0 &&
          answers.forged?.[401] === sent.forged &&
          (answers.oversized?.[413] ?? 0) + (answers.oversized?.[0] ?? 0) === sent.oversized &&
          answers.malformed?.[400] === sent.malformed &&
          answers.replayed?.[200] === sent.replayed,
        `answers by kind ${JSON.stringify(answers)}; ${stateChanges} state changes on the task only bad posts named (${bad} bad posts: ${JSON.stringify({ forged: sent.forged, oversized: sent.oversized, malformed: sent.malformed, replayed: sent.replayed })}); ${eventsAfter - eventsBefore} events stored: ${stored.map((s) => `${s.status} ${s.n}`).join(", ")}`
      )
      checks.record(
        "good posts all accepted",
        (answers.good?.[200] ?? 0) === sent.good,
        `${answers.good?.[200] ?? 0} of ${sent.good} good posts answered 200`
      )
    }
  } catch (error) {
    const checks = new Checks(say)
    checks.record("the reliability run", false, error instanceof Error ? error.message : String(error))
    scenarios.push({ name: "Harness", checks })
  } finally {
    for (const child of Object.values(instances)) {
      await stopProcess(child)
    }
    await simulator.stop()
    await db?.end().catch(() => undefined)
    await redis.stop()
    await pg.stop().catch(() => undefined)
  }
  let failed = 0
  for (const scenario of scenarios) {
    say(`${scenario.name}: ${scenario.checks.summary()}`)
    failed += scenario.checks.failed
  }
  if (failed) {
    say(logTails(work, ["server.log", "worker.log"]))
  }
  if (process.env.RECORD === "1") {
    recordSection(
      "faults",
      `## Faults: \`npm run test:reliability\`\n\nOne server and one worker of the app of README, Deploying (built from the packed tarball), on a PostgreSQL and a Redis of the run's own so both can be restarted; the simulator plays the service. Time the plugin waits on (the stale-booking pass, the retry backoff, the poll interval) is simulated by moving the rows' timestamps back. One run, ${new Date().toISOString().slice(0, 10)}, \`RECORD=1 npm run test:reliability\`, ${Math.round((Date.now() - started) / 1000)} s:\n\n${scenarios.map((s) => `### ${s.name}\n\n${s.checks.table()}\n\n${s.checks.summary()}.`).join("\n\n")}`
    )
  }
  if (process.env.KEEP_APP !== "1") {
    rmSync(work, { recursive: true, force: true })
  }
  return failed ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`reliability: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
