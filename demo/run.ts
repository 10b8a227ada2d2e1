/**
 * `npm run demo`: everything on one machine with only Node: PostgreSQL (embedded unless configured), the simulator,
 * migrations, a seeded store and admin, the shopper's storefront, then Medusa with its admin (docs/developing.md).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { LastmileSimulator, londonLocations } from "../packages/simulator/src"
import {
  DEMO_ADMIN,
  demoSetsUpInDashboard,
  DEMO_API_KEY,
  DEMO_DIR,
  DEMO_SKUS,
  DEMO_STATE_FILE,
  DEMO_WEBHOOK_SECRET,
  MEDUSA_PORT,
  SIMULATOR_PORT,
  STOREFRONT_PORT,
  type DemoState,
  demoStock,
} from "./settings"
import { buildStorefront, serveStorefront } from "./storefront-server"
import { DemoMailbox } from "./mailbox"
import { seedDemoHistory } from "./history"
import { createDatabase, stopProcess, waitForHealth } from "../integration-tests/system/lib/host-app"

const say = (line: string) => process.stdout.write(`demo: ${line}\n`)
const children: ChildProcess[] = []
const cleanups: (() => Promise<void>)[] = []

function run(args: string[], env: NodeJS.ProcessEnv, { quiet = true } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["medusa", ...args], { env, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" })
    let output = ""
    child.stdout?.on("data", (chunk) => (output += String(chunk)))
    child.stderr?.on("data", (chunk) => (output += String(chunk)))
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`medusa ${args[0]} exited with ${code}:\n${output.slice(-4000)}`))
    )
  })
}

let stopping = false
async function shutdown(code: number): Promise<never> {
  if (stopping) {
    return new Promise<never>(() => undefined)
  }
  stopping = true
  for (const child of children) {
    await stopProcess(child)
  }
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch(() => undefined)
  }
  rmSync(DEMO_STATE_FILE, { force: true })
  process.exit(code)
}

/** Fails early, and clearly, when another server holds a port the demo needs. */
function ensurePortFree(port: number, what: string, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", () =>
      reject(new Error(`port ${port} (${what}) is in use: stop what runs there, or set ${variable}`))
    )
    probe.listen(port, () => probe.close(() => resolve()))
  })
}

async function main(): Promise<void> {
  mkdirSync(DEMO_DIR, { recursive: true })
  await ensurePortFree(MEDUSA_PORT, "Medusa", "PORT")
  await ensurePortFree(SIMULATOR_PORT, "the simulator", "LASTMILE_SIM_PORT")
  await ensurePortFree(STOREFRONT_PORT, "the storefront", "STOREFRONT_PORT")
  // Loopback only unless told otherwise: the demo is not a server for the network.
  const host = process.env.DEMO_HOST ?? "127.0.0.1"
  const medusaUrl = `http://localhost:${MEDUSA_PORT}`
  const storefrontUrl = `http://localhost:${STOREFRONT_PORT}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(MEDUSA_PORT),
    NODE_ENV: "development",
    // Secrets of this run only: a token signed with a well-known secret is refused.
    JWT_SECRET: process.env.JWT_SECRET ?? randomBytes(32).toString("hex"),
    COOKIE_SECRET: process.env.COOKIE_SECRET ?? randomBytes(32).toString("hex"),
    LASTMILE_API_KEY: DEMO_API_KEY,
    LASTMILE_WEBHOOK_SECRET: DEMO_WEBHOOK_SECRET,
    LASTMILE_FALLBACK_AMOUNTS: process.env.LASTMILE_FALLBACK_AMOUNTS ?? "gbp:5.95",
    LASTMILE_MARK_RETURNS_RECEIVED: "true",
    // The demo's simulator takes a booking's order.note: the shopper's note to the courier goes with the booking.
    LASTMILE_SEND_DELIVERY_NOTE: process.env.LASTMILE_SEND_DELIVERY_NOTE ?? "true",
    LASTMILE_INSIGHTS_TIME_ZONE: process.env.LASTMILE_INSIGHTS_TIME_ZONE ?? "Europe/London",
    LASTMILE_TIME_ZONE: process.env.LASTMILE_TIME_ZONE ?? "Europe/London",
    LASTMILE_MERCHANT_EMAILS: process.env.LASTMILE_MERCHANT_EMAILS ?? "orders@lastmile-demo.example",
    MEDUSA_DISABLE_TELEMETRY: "true",
    // The shopper's storefront calls the store API from its own origin.
    STORE_CORS: process.env.STORE_CORS ?? `${storefrontUrl},http://127.0.0.1:${STOREFRONT_PORT}`,
  }

  if (!process.env.DATABASE_URL && !process.env.DB_HOST) {
    say("no DATABASE_URL or DB_HOST: starting an embedded PostgreSQL")
    // An ES module, imported dynamically from this CommonJS-compiled script.
    const { startEmbeddedDatabase } = await import("../scripts/embedded-database.mjs")
    // Its data goes with the run (a temporary folder, removed on stop): nothing needs flushing to disk.
    const db = await startEmbeddedDatabase({ throwaway: true })
    cleanups.push(() => db.stop())
    env.DB_HOST = db.host
    env.DB_PORT = String(db.port)
    env.DB_USERNAME = db.user
    env.DB_PASSWORD = db.password
  }
  // Medusa's CLI reads DATABASE_URL; a fresh database per run unless one is given.
  const databaseName = process.env.DB_NAME ?? `medusa-lastmile-demo-${Date.now()}`
  if (!process.env.DATABASE_URL) {
    const user = encodeURIComponent(env.DB_USERNAME ?? "postgres")
    const password = env.DB_PASSWORD ? `:${encodeURIComponent(env.DB_PASSWORD)}` : ""
    env.DATABASE_URL = `postgres://${user}${password}@${env.DB_HOST}:${env.DB_PORT ?? "5432"}/${databaseName}`
  }

  const simulator = new LastmileSimulator({
    config: { apiKey: DEMO_API_KEY, webhookUrl: `${medusaUrl}/hooks/lastmile/${DEMO_WEBHOOK_SECRET}` },
    locations: londonLocations(DEMO_SKUS, demoStock),
  })
  const simulatorUrl = await simulator.start(SIMULATOR_PORT, "127.0.0.1")
  cleanups.push(() => simulator.stop())
  env.LASTMILE_BASE_URL = simulatorUrl
  say(`simulator on ${simulatorUrl} (a warehouse and ten London stores)`)

  if (!process.env.DATABASE_URL) {
    say(`creating database ${databaseName}`)
    // Medusa's db:create reads only a .env file, so the database is created here.
    const server = new URL(env.DATABASE_URL!)
    server.pathname = ""
    await createDatabase(server.toString().replace(/\/$/, ""), databaseName)
  }
  say("running migrations")
  await run(["db:migrate"], env)
  say(
    demoSetsUpInDashboard()
      ? "seeding the demo store, lastmile left to set up in Settings → Lastmile (LASTMILE_DEMO_SETUP=dashboard)"
      : "seeding the demo store (one-click lastmile setup included)"
  )
  const seedOut = join(DEMO_DIR, "seed.json")
  await run(["exec", "./demo/seed.ts"], { ...env, LASTMILE_DEMO_SEED_OUT: seedOut })
  await run(["user", "-e", DEMO_ADMIN.email, "-p", DEMO_ADMIN.password], env).catch(() =>
    say(`admin user ${DEMO_ADMIN.email} exists already`)
  )
  const seed = JSON.parse(readFileSync(seedOut, "utf8")) as { publishableKey: string; regionId: string }
  say("building the shopper's storefront")
  const storefrontDir = join(DEMO_DIR, "storefront")
  await buildStorefront(storefrontDir)

  say("starting Medusa with its admin (the first start compiles the admin: allow a minute)")
  const medusa = spawn("npx", ["medusa", "develop", "--host", host], {
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  children.push(medusa)
  const log = join(DEMO_DIR, "medusa.log")
  writeFileSync(log, "")
  medusa.stdout?.on("data", (chunk) => writeFileSync(log, chunk, { flag: "a" }))
  medusa.stderr?.on("data", (chunk) => writeFileSync(log, chunk, { flag: "a" }))
  medusa.on("exit", (code) => {
    say(`Medusa stopped (${code}); its log is in ${log}`)
    void shutdown(code ?? 1)
  })
  await waitForHealth(medusaUrl, 180_000, medusa)
  // Whoever runs the demo reads any address's mail through this link; a shopper's browser reads its own orders'.
  const mailboxKey = randomBytes(16).toString("hex")
  const storefront = await serveStorefront(
    storefrontDir,
    STOREFRONT_PORT,
    host,
    { medusaUrl, publishableKey: seed.publishableKey, regionId: seed.regionId },
    new DemoMailbox(medusaUrl, DEMO_ADMIN, seed.publishableKey),
    { runKey: mailboxKey }
  )
  cleanups.push(
    () =>
      new Promise((resolve) => {
        storefront.close(() => resolve())
        storefront.closeAllConnections()
      })
  )

  const state: DemoState = {
    medusaUrl,
    simulatorUrl,
    storefrontUrl,
    publishableKey: seed.publishableKey,
    regionId: seed.regionId,
    databaseUrl: env.DATABASE_URL!,
  }
  if (!demoSetsUpInDashboard()) {
    await seedDemoHistory({ ...state, admin: DEMO_ADMIN, say })
  }
  writeFileSync(DEMO_STATE_FILE, JSON.stringify(state, null, 2))
  say("ready")
  process.stdout.write(
    [
      "",
      `  Storefront:         ${storefrontUrl} (a shopper's checkout: delivery or click and collect)`,
      `  Shopper's mailbox:  ${storefrontUrl}/mailbox (the emails of the orders placed from that browser, through Medusa's local provider)`,
      `  Every mailbox:      ${storefrontUrl}/mailbox?key=${mailboxKey} (this run's link: any address's emails, in the browser that opens it)`,
      `  Admin:              ${medusaUrl}/app`,
      `  Log in as:          ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`,
      `  Lastmile settings:  ${medusaUrl}/app/settings/lastmile`,
      `  Store API key:      ${seed.publishableKey}`,
      `  Simulator:          ${simulatorUrl} (tracking pages under /track/)`,
      `  Webhook URL:        ${medusaUrl}/hooks/lastmile/${DEMO_WEBHOOK_SECRET} (what a merchant pastes into the service; the simulator posts to it)`,
      `  Medusa log:         ${log}`,
      "",
      "  Place an order and watch it delivered:  npm run demo:checkout",
      "  Stop with Ctrl+C.",
      "",
    ].join("\n")
  )
}

process.on("SIGINT", () => void shutdown(0))
process.on("SIGTERM", () => void shutdown(0))
main().catch((error: unknown) => {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`)
  void shutdown(1)
})
