/**
 * Part of `npm run bench` (issue 42): the delivery step's capacity on Redis, two servers and a worker of the cluster
 * test's production app, against one of those servers alone, with the servers' CPU per request (decision 44).
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import type { Server } from "node:http"
import IORedis from "ioredis"
import { Client } from "@medusajs/framework/pg"
import { LastmileSimulator, alwaysOpenHours, londonLocations } from "../../packages/simulator/src"
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import { copyCarts } from "../helpers/cart-copies"
import {
  createDatabase,
  dropDatabase,
  hostEnv,
  logTails,
  prepareHostApp,
  startDatabase,
  startInstance,
  stopProcess,
  waitForHealth,
} from "../system/lib/host-app"
import { MedusaHttp, adminLogin, newCart, setUpStoreOverHttp } from "../system/lib/http-store"
import { roundRobin } from "../system/lib/round-robin"
import { londonShopper } from "../helpers/storefront"
import {
  capacityRatio,
  capacityText,
  curveTable,
  kindTable,
  levelText,
  ms,
  perSecond,
  ratioText,
  writeSection,
} from "./capacity-report"
import {
  CHECKOUT_REQUESTS,
  type CheckoutKind,
  type CheckoutShop,
  checkoutSession,
  ignoredRecorder,
} from "./checkout-session"
import {
  type Curve,
  type CurvePath,
  LoadClient,
  type StepResult,
  capacitySettings,
  describeSettings,
  rampCapacities,
  runArrivals,
  timed,
  waitForQuiet,
} from "./open-loop"

const say = (line: string) => process.stdout.write(`capacity-cluster: ${line}\n`)
const ADMIN = { email: "ops@example.com", password: "capacity-bench-password" }
const API_KEY = "capacity_key_0123456789"
const WEBHOOK_SECRET = "capacity-hook-0123456789"
const LATENCY_MS = 100
const settings = capacitySettings("BENCH_CAPACITY_CLUSTER_RATES", [4, 8, 16, 32, 64, 128, 256])
const checkoutSettings = capacitySettings("BENCH_CAPACITY_CHECKOUT_RATES", [0.25, 0.5, 0.7, 1, 1.4, 2, 2.8, 4])
const TICKS_PER_SECOND = 100

/** CPU time (ms) of every process in these process groups (each instance is `npx medusa start` and its node). */
function groupCpuMs(groups: number[]): number {
  let ticks = 0
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) {
      continue
    }
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8")
      // Fields after the command's closing parenthesis: state, ppid, pgrp, …, utime (14th field), stime (15th).
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (groups.includes(Number(fields[2]))) {
        ticks += Number(fields[11]) + Number(fields[12])
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND
}

function redisUrlFor(url: string): string {
  const parsed = new URL(url)
  if (!parsed.pathname || parsed.pathname === "/") {
    // Not the cluster test's database 9: both may run on one machine.
    parsed.pathname = "/10"
  }
  return parsed.toString()
}

/**
 * A flat-rate option of Medusa's manual provider beside the plugin's, from the warehouse's service zone, with the body
 * the dashboard's create form sends (a shipping option type first, as the form picks one).
 */
async function manualFlatRate(admin: MedusaHttp, warehouseId: string): Promise<string> {
  const { stock_location } = await admin.get<{
    stock_location: { fulfillment_sets: { service_zones: { id: string }[] }[] }
  }>(`/admin/stock-locations/${warehouseId}?fields=*fulfillment_sets,*fulfillment_sets.service_zones`)
  const zoneId = stock_location.fulfillment_sets[0]?.service_zones[0]?.id
  if (!zoneId) {
    throw new Error("the warehouse has no service zone after the setup")
  }
  await admin.post(`/admin/stock-locations/${warehouseId}/fulfillment-providers`, { add: ["manual_manual"] })
  const { shipping_profiles } = await admin.get<{ shipping_profiles: { id: string; type: string }[] }>(
    "/admin/shipping-profiles"
  )
  const profileId = shipping_profiles.find((p) => p.type === "default")?.id ?? shipping_profiles[0].id
  const { shipping_option_type } = await admin.post<{ shipping_option_type: { id: string } }>(
    "/admin/shipping-option-types",
    { label: "Standard", code: "standard", description: "Ship in 2-3 days." }
  )
  const { shipping_option } = await admin.post<{ shipping_option: { id: string } }>("/admin/shipping-options", {
    name: "Standard post",
    price_type: "flat",
    service_zone_id: zoneId,
    shipping_profile_id: profileId,
    provider_id: "manual_manual",
    prices: [{ currency_code: "gbp", amount: 4.95 }],
    data: { id: "manual-fulfillment" },
    rules: [
      { value: "false", attribute: "is_return", operator: "eq" },
      { value: "true", attribute: "enabled_in_store", operator: "eq" },
    ],
    type_id: shipping_option_type.id,
  })
  return shipping_option.id
}

interface CheckoutRun {
  client: LoadClient
  shop: Omit<CheckoutShop, "client">
  /** CPU of the server the load reaches, and of the worker. */
  serverCpu: () => number
  workerCpu: () => number
  allCpu: () => number
  sql: (statement: string) => Promise<Record<string, unknown>[]>
  simulator: LastmileSimulator
}

interface CheckoutCapacities {
  curves: Curve[]
  /** Per session, CPU ms: the server's over the requests, the worker's until the next step (the bookings, messages). */
  cpu: Record<CheckoutKind, { server: number; worker: number }>
}

/**
 * A whole checkout's capacity on one production server with its worker, a lastmile rate against a manual flat rate:
 * each step starts once the bookings of the one before are settled and every process is idle.
 */
async function checkoutCapacities(run: CheckoutRun): Promise<CheckoutCapacities> {
  const shop: CheckoutShop = { ...run.shop, client: run.client }
  for (let i = 0; i < 6; i++) {
    await checkoutSession(shop, "lastmile")(performance.now(), ignoredRecorder)
    await checkoutSession(shop, "manual")(performance.now(), ignoredRecorder)
  }
  const totals: Record<CheckoutKind, { server: number; worker: number; sessions: number }> = {
    lastmile: { server: 0, worker: 0, sessions: 0 },
    manual: { server: 0, worker: 0, sessions: 0 },
  }
  const path = (kind: CheckoutKind): CurvePath => ({
    name: kind === "lastmile" ? "Lastmile checkout" : "Manual flat-rate checkout",
    async step(rate, arrivals) {
      await waitForQuiet(run.allCpu, 0.1)
      const orders: string[] = []
      const session = checkoutSession(shop, kind)
      const workerBefore = run.workerCpu()
      const result = await runArrivals(
        rate,
        arrivals,
        async (_i, at, record) => {
          const order = await session(at, record)
          if (order) {
            orders.push(order)
          }
        },
        run.serverCpu
      )
      if (kind === "lastmile" && orders.length) {
        const started = performance.now()
        const deadline = Date.now() + 180_000
        const list = orders.map((id) => `'${id.replace(/[^A-Za-z0-9_]/g, "")}'`).join(",")
        for (;;) {
          const rows = await run.sql(`select status from lastmile_task where order_id in (${list})`)
          const settled = rows.filter((r) => r.status !== "pending" && r.status !== "booking").length
          if (settled >= orders.length || Date.now() > deadline) {
            result.counts.booked = rows.filter((r) => r.status === "booked").length
            result.counts.settleMs = performance.now() - started
            break
          }
          await new Promise((resolve) => setTimeout(resolve, 250))
        }
      }
      // What the worker did for this step's orders: until the processes are idle again.
      await waitForQuiet(run.allCpu, 0.1)
      result.counts.workerCpuMs = run.workerCpu() - workerBefore
      if (result.cpuMsPerArrival !== null) {
        totals[kind].server += result.cpuMsPerArrival * result.arrivals
        totals[kind].worker += result.counts.workerCpuMs
        totals[kind].sessions += result.arrivals
      }
      run.simulator.clearRequests()
      return result
    },
  })
  const curves = await rampCapacities(checkoutSettings, [path("lastmile"), path("manual")])
  await run.client.close()
  const per = (kind: CheckoutKind) => ({
    server: totals[kind].sessions ? totals[kind].server / totals[kind].sessions : 0,
    worker: totals[kind].sessions ? totals[kind].worker / totals[kind].sessions : 0,
  })
  return { curves, cpu: { lastmile: per("lastmile"), manual: per("manual") } }
}

function writeCheckoutSection({ curves: [lastmile, manual], cpu }: CheckoutCapacities): void {
  const ratio = capacityRatio(lastmile, manual)
  const sideBySide = lastmile.steps
    .flatMap((a) => {
      const b = manual.steps.find((s) => s.rate === a.rate)
      return b ? [`${perSecond(a.rate)} ${ms(a.p95)} ÷ ${ms(b.p95)} = ${(a.p95 / b.p95).toFixed(2)}`] : []
    })
    .join("; ")
  const placed = (withBookings: boolean) => ({
    title: withBookings ? "Orders placed; booked; worker CPU ms" : "Orders placed; worker CPU ms",
    cell: (s: StepResult) =>
      `${s.counts.orders ?? 0}/${s.arrivals}; ${withBookings ? `${s.counts.booked ?? 0}${s.counts.settleMs === undefined ? "" : ` (${(s.counts.settleMs / 1000).toFixed(1)} s after the last answer)`}; ` : ""}${(s.counts.workerCpuMs ?? 0).toFixed(0)}`,
  })
  const cpuRow = (what: string, pick: (c: { server: number; worker: number }) => number) =>
    `| ${what} | ${pick(cpu.lastmile).toFixed(0)} ms | ${pick(cpu.manual).toFixed(0)} ms | ${pick(cpu.manual) ? (pick(cpu.lastmile) / pick(cpu.manual)).toFixed(2) : "—"} |`
  writeSection(
    "Capacity: a whole checkout at p95 ≤ 500 ms",
    `
Produced by \`npm run bench\` (integration-tests/bench/capacity-cluster.ts, after the cluster's delivery step; alone: \`npx tsx integration-tests/bench/capacity-cluster.ts\`, both parts) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs: the cluster test's production app (built from the packed plugin, \`NODE_ENV=production\`), the load sent to one server, the worker beside it on Redis (as Medusa deploys: subscribers and jobs, so the booking, its messages and the offer counts, run in the worker), PostgreSQL, ${LATENCY_MS} ms added at the simulator (quotes and bookings). Shoppers arrive as a Poisson process (sessions a second), each a whole checkout through Medusa's store API as a storefront sends it: \`POST /store/carts\` with the region and a line, \`POST /store/carts/:id\` with the email and addresses, the delivery step, \`POST /store/carts/:id/shipping-methods\`, \`POST /store/payment-collections\`, its payment session with \`pp_system_default\`, \`POST /store/carts/:id/complete\`: ${CHECKOUT_REQUESTS} requests, one after another. "Lastmile" shows the step with \`GET /store/lastmile/rates\` and chooses the next-day rate (\`data.rate_code\`); "manual" lists Medusa's options (\`GET /store/shipping-options\`) and chooses a flat "Standard post" of Medusa's manual provider, created from the dashboard's body in the same store. p50 and p95 are over the requests (the first timed from the session's scheduled arrival, each next from when the shopper sent it); a failure ends its session, and the requests it did not send count as failed. CPU ms per arrival is the server's own (\`/proc\`). ${describeSettings(checkoutSettings)}. Level: ${levelText}. The next step starts when the bookings are settled and the processes are idle.

| Goal | Measured | |
|---|---|---|
| A lastmile checkout's capacity ≥ 0.95× a manual flat-rate checkout's | ${capacityText(lastmile)} ÷ ${capacityText(manual)} = **${ratioText(lastmile, manual)}** | ${ratio !== null && ratio >= 0.95 ? "**met**" : "**not met**"} |

p95 over the requests at each rate both ran, lastmile ÷ manual: ${sideBySide}.

CPU per session over all steps (the server's over its requests; the worker's from the step's start until the processes were idle after it):

| CPU per session | Lastmile | Manual | Lastmile ÷ manual |
|---|---|---|---|
${cpuRow("Server (the shopper's requests)", (c) => c.server)}
${cpuRow("Worker (booking, messages, offer counts; Medusa's own subscribers)", (c) => c.worker)}
${cpuRow("Both", (c) => c.server + c.worker)}

### Lastmile checkout

${curveTable(lastmile, "Requests", placed(true))}

By request:

${kindTable(lastmile)}

### Manual flat-rate checkout

${curveTable(manual, "Requests", placed(false))}

By request:

${kindTable(manual)}
`
  )
}

async function main(): Promise<number> {
  const started = Date.now()
  const work = mkdtempSync(join(tmpdir(), "lastmile-capacity-cluster-"))
  const database = await startDatabase()
  const databaseName = `lastmile-capacity-${Date.now()}`
  const children: ChildProcess[] = []
  const balancers: Server[] = []
  const redisUrl = redisUrlFor(process.env.REDIS_URL ?? "redis://127.0.0.1:6379")
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: null })
  let simulator: LastmileSimulator | undefined
  let db: Client | undefined
  let failed = false
  try {
    await redis.flushdb()
    const { freePort } = await import("../../scripts/embedded-database.mjs")
    const ports = { a: await freePort(), b: await freePort(), worker: await freePort() }
    const one = await roundRobin([ports.a])
    const two = await roundRobin([ports.a, ports.b])
    balancers.push(one.server, two.server)
    const lbUrl = `http://localhost:${two.port}`
    simulator = new LastmileSimulator({
      config: { apiKey: API_KEY, webhookUrl: `${lbUrl}/hooks/lastmile/${WEBHOOK_SECRET}` },
      locations: londonLocations(["DEMO-TEE"]).map((l) => ({ ...l, operatingHours: alwaysOpenHours() })),
    })
    const simUrl = await simulator.start(0, "127.0.0.1")
    const databaseUrl = await createDatabase(database.serverUrl, databaseName)
    const env = hostEnv({ REDIS_URL: redisUrl })
    const { serverDir } = await prepareHostApp({
      work,
      reuse: true,
      configFirstLine: "// medusa-config.ts, deployed on several instances",
      dotenv: {
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        JWT_SECRET: "capacity-jwt",
        COOKIE_SECRET: "capacity-cookie",
        STORE_CORS: "http://localhost:8000",
        ADMIN_CORS: lbUrl,
        AUTH_CORS: lbUrl,
        LASTMILE_API_KEY: API_KEY,
        LASTMILE_BASE_URL: simUrl,
        LASTMILE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
      env,
      admin: ADMIN,
      log: say,
    })
    say("starting two servers and a worker (NODE_ENV=production)")
    const instance = (name: string, port: number, mode: "server" | "worker") => {
      const child = startInstance({ serverDir, env, name, port, mode, logDir: work })
      children.push(child)
      return child
    }
    const worker = instance("worker", ports.worker, "worker")
    const serverA = instance("server-a", ports.a, "server")
    const serverB = instance("server-b", ports.b, "server")
    await Promise.all([
      waitForHealth(`http://localhost:${ports.a}`, 240_000, serverA),
      waitForHealth(`http://localhost:${ports.b}`, 240_000, serverB),
      waitForHealth(`http://localhost:${ports.worker}`, 240_000, worker),
    ])
    const servers = [serverA.pid!, serverB.pid!]
    const serversCpu = () => groupCpuMs(servers)
    const allCpu = () => groupCpuMs([...servers, worker.pid!])
    say(`up in ${Math.round((Date.now() - started) / 1000)} s`)

    db = new Client({ connectionString: databaseUrl })
    await db.connect()
    const sql = async (statement: string) => (await db!.query(statement)).rows as Record<string, unknown>[]
    const admin = await adminLogin(lbUrl, ADMIN.email, ADMIN.password)
    const store = await setUpStoreOverHttp(admin, ["DEMO-TEE"])
    const shop = new MedusaHttp(lbUrl, { "x-publishable-api-key": store.publishableKey })
    const template = await newCart(shop, store, store.variantIds["DEMO-TEE"], "ada@example.com")
    let batch = 0
    const cartsFor = (n: number) => copyCarts(sql, template, n, `cl${++batch}`)
    const headers = { "x-publishable-api-key": store.publishableKey }
    const clients = {
      one: new LoadClient(`http://127.0.0.1:${one.port}`, headers, settings.timeoutMs),
      two: new LoadClient(`http://127.0.0.1:${two.port}`, headers, settings.timeoutMs),
    }
    const ask = (client: LoadClient) => (cartId: string, since: number, record: Parameters<typeof timed>[0]) =>
      timed<LastmileRatesResponse>(
        record,
        since,
        () => client.request("GET", `/store/lastmile/rates?cart_id=${cartId}`),
        (answer) => answer.rates.some((r) => r.available)
      ).then(() => undefined)
    // Warm both servers (JIT, pools, the catalogue) before the latency is added.
    const ignored = { sample: () => undefined, unsent: () => undefined, count: () => undefined }
    for (const cart of await cartsFor(20)) {
      await ask(clients.two)(cart, performance.now(), ignored)
    }
    simulator.addFault({ operation: "*", kind: "latency", latencyMs: LATENCY_MS })

    const path = (name: string, client: LoadClient): CurvePath => ({
      name,
      async step(rate, arrivals) {
        const carts = await cartsFor(arrivals.length)
        await waitForQuiet(allCpu, 0.1)
        const quotesBefore = simulator!.requests("quote").length
        const workerBefore = groupCpuMs([worker.pid!])
        const result = await runArrivals(
          rate,
          arrivals,
          (i, at, record) => ask(client)(carts[i], at, record),
          serversCpu
        )
        result.counts.quotes = simulator!.requests("quote").length - quotesBefore
        result.counts.workerCpuMs = groupCpuMs([worker.pid!]) - workerBefore
        simulator!.clearRequests()
        return result
      },
    })
    const [single, cluster] = await rampCapacities(settings, [
      path("One server", clients.one),
      path("Two servers, round robin", clients.two),
    ])
    await Promise.all([clients.one.close(), clients.two.close()])

    const manualOptionId = await manualFlatRate(admin, store.locationIds[0])
    const checkouts = await checkoutCapacities({
      client: new LoadClient(`http://127.0.0.1:${one.port}`, headers, checkoutSettings.timeoutMs),
      shop: {
        regionId: store.regionId,
        variantId: store.variantIds["DEMO-TEE"],
        manualOptionId,
        address: londonShopper,
      },
      serverCpu: () => groupCpuMs([serverA.pid!]),
      workerCpu: () => groupCpuMs([worker.pid!]),
      allCpu,
      sql,
      simulator,
    })

    /** Servers' CPU per request: the least over the steps (where background work and idle time weigh least). */
    const cpuAtCapacity = (curve: Curve) => {
      const figures = curve.steps.flatMap((s) => (s.cpuMsPerArrival === null ? [] : [s.cpuMsPerArrival]))
      return figures.length ? Math.min(...figures) : null
    }
    const perCore = (curve: Curve, cores: number) => curve.capacity / cores
    const cpuOne = cpuAtCapacity(single)
    const cpuTwo = cpuAtCapacity(cluster)
    const addable = cpuTwo ? 1000 / cpuTwo : null
    const quotes = {
      title: "Quotes per arrival; worker CPU ms",
      cell: (s: StepResult) =>
        `${s.arrivals ? ((s.counts.quotes ?? 0) / s.arrivals).toFixed(2) : "—"}; ${(s.counts.workerCpuMs ?? 0).toFixed(0)}`,
    }
    const coresUsed = Math.min(2, cpus().length)
    writeSection(
      "Capacity: the delivery step on a cluster (Redis)",
      `
Produced by \`npm run bench\` (integration-tests/bench/capacity-cluster.ts; alone: \`npx tsx integration-tests/bench/capacity-cluster.ts\`, with \`REDIS_URL\`, default \`redis://127.0.0.1:6379\`, its database 10 emptied first) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs: the cluster test's app (README, Deploying; built from the packed plugin, \`NODE_ENV=production\`), two servers and a worker on Redis (event bus, workflow engine, locking, caching) and PostgreSQL, the store set up as docs/admin-api.md maps it (next day from the warehouse and one store's collection, 2 calculated options), ${LATENCY_MS} ms added at the simulator. The load (this process, with a round-robin proxy in front of the servers) sends the rates route, each arrival a new cart state, open loop as the delivery step's section above. "One server" is the same proxy with one upstream (server A; B idle); "two servers" alternates between both. CPU ms per arrival is the servers' own (read from \`/proc\` over the step, both servers' process groups) divided by its arrivals. ${describeSettings(settings)}. Level: ${levelText}.

| Figure | One server | Two servers |
|---|---|---|
| Capacity | ${capacityText(single)} | ${capacityText(cluster)} |
| Capacity per core (${coresUsed} cores: servers, worker, PostgreSQL and the load share them) | ${perSecond(perCore(single, coresUsed))} | ${perSecond(perCore(cluster, coresUsed))} |
| Servers' CPU per request (the least over the steps) | ${cpuOne === null ? "—" : `${cpuOne.toFixed(1)} ms`} | ${cpuTwo === null ? "—" : `${cpuTwo.toFixed(1)} ms`} |

Two servers ÷ one: **${ratioText(cluster, single)}** on the same ${coresUsed} cores: a cluster costs ${cluster.capacity >= single.capacity ? "no" : "some"} capacity here. One more server on a core of its own would add up to ${addable === null ? "— (no rate held)" : `about **${addable.toFixed(0)}**`} new cart states a second (1000 ms ÷ the servers' CPU per request, at full use; PostgreSQL and Redis not counted).

### One server

${curveTable(single, "Steps", quotes)}

### Two servers, round robin

${curveTable(cluster, "Steps", quotes)}
`
    )
    writeCheckoutSection(checkouts)
    failed =
      single.steps[0].samples === 0 ||
      cluster.steps[0].failureShare >= 0.5 ||
      checkouts.curves.some((c) => (c.steps[0]?.counts.orders ?? 0) === 0)
  } catch (error) {
    failed = true
    say(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    say(logTails(work, ["server-a.log", "server-b.log", "worker.log"]))
  } finally {
    for (const child of children.reverse()) {
      await stopProcess(child)
    }
    for (const balancer of balancers) {
      balancer.close()
    }
    await simulator?.stop()
    await db?.end().catch(() => undefined)
    await redis.quit().catch(() => undefined)
    await dropDatabase(database.serverUrl, databaseName).catch(() => undefined)
    await database.stop().catch(() => undefined)
    rmSync(work, { recursive: true, force: true })
  }
  say(`${failed ? "failed" : "done"} in ${Math.round((Date.now() - started) / 1000)} s`)
  return failed ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`capacity-cluster: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
