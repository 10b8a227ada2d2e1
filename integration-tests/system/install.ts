/**
 * `npm run test:install`: the README's install path, literally, in a Medusa app made from scratch from the packed
 * tarballs, then checked over HTTP (docs/developing.md). KEEP_APP=1 keeps the app's folder.
 */
import { type ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  adminBundle,
  createDatabase,
  envLines,
  hostEnv,
  logTails,
  prepareHostApp,
  readmeBlock,
  run,
  startDatabase,
  startProcess,
  stopProcess,
  waitForHealth,
} from "./lib/host-app"
import { Checks, until } from "./lib/harness"
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import { adminLogin, MedusaHttp, newCart, placeOrder, setUpStoreOverHttp } from "./lib/http-store"
import { checkStorefrontPackage } from "./storefront-package"
import { checkInsightsInApp } from "./lib/browser-insights"

const say = (line: string) => process.stdout.write(`install: ${line}\n`)
const ADMIN = { email: "merchant@example.com", password: "install-test-password" }
const checks = new Checks(say)
const children: ChildProcess[] = []

/** Records a check: what `body` answers when it passes, why it threw when it fails. */
async function check(name: string, body: () => Promise<string>): Promise<void> {
  try {
    checks.record(name, true, await body())
  } catch (error) {
    checks.record(name, false, error instanceof Error ? error.message : String(error))
  }
}

interface TaskView {
  status: string
  task_id: string | null
  tracking_url: string | null
  tracking_state: string
}

async function main(): Promise<number> {
  const started = Date.now()
  const work = mkdtempSync(join(tmpdir(), "lastmile-install-"))
  const database = await startDatabase()
  try {
    const { freePort } = await import("../../scripts/embedded-database.mjs")
    const medusaPort = await freePort()
    const simPort = await freePort()
    const medusaUrl = `http://localhost:${medusaPort}`
    // README step 3: the .env lines, with the simulator on a free port.
    const readmeEnv = envLines(readmeBlock("# .env"))
    const baseUrl = new URL(readmeEnv.LASTMILE_BASE_URL)
    baseUrl.port = String(simPort)
    const databaseUrl = await createDatabase(database.serverUrl, `lastmile-install-${Date.now()}`)
    const env = hostEnv({ PORT: String(medusaPort) })
    // README steps 1 to 4: install, medusa-config.ts, .env, migrate; then Deploying's build.
    const { appDir, serverDir, storefrontTarball } = await prepareHostApp({
      work,
      configFirstLine: "// medusa-config.ts",
      dotenv: {
        DATABASE_URL: databaseUrl,
        JWT_SECRET: "install-test-jwt",
        COOKIE_SECRET: "install-test-cookie",
        STORE_CORS: "http://localhost:8000",
        ADMIN_CORS: medusaUrl,
        AUTH_CORS: medusaUrl,
        ...readmeEnv,
        LASTMILE_BASE_URL: baseUrl.toString().replace(/\/$/, ""),
      },
      env,
      admin: ADMIN,
      log: say,
    })

    // A storefront installs the helpers alone, without the plugin's server peers.
    await check(
      "the storefront package installs alone (--strict-peer-deps), with no server package, and type-checks",
      () => checkStorefrontPackage(storefrontTarball)
    )
    await check("medusa-plugin-lastmile/storefront still loads the helpers from the merchant's app", async () => {
      const loaded = await run(
        process.execPath,
        ["-e", 'process.stdout.write(typeof require("medusa-plugin-lastmile/storefront").createLastmileStorefront)'],
        { cwd: appDir }
      )
      if (loaded.trim() !== "function") {
        throw new Error(`require answered ${loaded}`)
      }
      return "createLastmileStorefront is a function"
    })
    // The simulator is a package of its own (packages/simulator): the plugin re-exports it and keeps its bin.
    await check("medusa-plugin-lastmile/simulator runs the simulator package from the merchant's app", async () => {
      const script = `const { LastmileSimulator } = require("medusa-plugin-lastmile/simulator")
        if (LastmileSimulator !== require("medusa-plugin-lastmile-simulator").LastmileSimulator) throw new Error("not the package's")
        const sim = new LastmileSimulator()
        sim.start().then(async (url) => {
          const answer = await fetch(url + "/__sim/config")
          await sim.stop()
          process.stdout.write(String(answer.status))
        })`
      const status = await run(process.execPath, ["-e", script], { cwd: appDir })
      if (status.trim() !== "200") {
        throw new Error(`the simulator answered ${status}`)
      }
      return "a LastmileSimulator from the plugin's entry answered its control API"
    })
    await check("the plugin's own lastmile-simulator bin runs the simulator package's command", async () => {
      const installed = join(appDir, "node_modules", "medusa-plugin-lastmile")
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
        bin: Record<string, string>
      }
      const bin = join(installed, manifest.bin["lastmile-simulator"])
      const help = await run(process.execPath, [bin, "--help"], { cwd: appDir })
      if (!help.startsWith("lastmile-simulator:")) {
        throw new Error(`--help printed ${help.slice(0, 200)}`)
      }
      return "--help printed the simulator's usage"
    })

    // The README's simulator command, run from the app through the package's bin.
    const simCommand = readmeBlock(
      "# the bundled simulator, in a second terminal: a London warehouse and ten stores stocking DEMO-TEE, DEMO-MUG, DEMO-CAP"
    )
      .split("\n")[1]
      .trim()
      .replace("localhost:9000", `localhost:${medusaPort}`)
    const [npx, ...simArgs] = simCommand.split(/\s+/)
    const simulator = startProcess(npx, [...simArgs, "--port", String(simPort)], {
      cwd: appDir,
      env,
      logFile: join(work, "simulator.log"),
    })
    children.push(simulator)
    const simUrl = `http://127.0.0.1:${simPort}`
    await until("the simulator", 30_000, async () =>
      (await fetch(`${simUrl}/__sim/config`).catch(() => undefined))?.ok ? true : undefined
    )

    say("medusa start, NODE_ENV=production")
    const medusa = startProcess("npx", ["medusa", "start"], {
      cwd: serverDir,
      env: { ...env, NODE_ENV: "production" },
      logFile: join(work, "medusa.log"),
    })
    children.push(medusa)
    await waitForHealth(medusaUrl, 180_000, medusa)
    say(`up on ${medusaUrl} (${Math.round((Date.now() - started) / 1000)} s since the start)`)

    const admin = await adminLogin(medusaUrl, ADMIN.email, ADMIN.password)

    await check("the provider lists its fulfillment options", async () => {
      const { fulfillment_options } = await admin.get<{ fulfillment_options: { id: string }[] }>(
        "/admin/fulfillment-providers/lastmile_lastmile/options"
      )
      const ids = fulfillment_options.map((o) => o.id).sort()
      for (const id of ["lastmile-collection", "lastmile-next-day", "lastmile-return"]) {
        if (!ids.includes(id)) {
          throw new Error(`missing ${id} in ${ids.join(", ")}`)
        }
      }
      return ids.join(", ")
    })

    await check("the admin bundle has Settings → Lastmile and both widgets", async () => {
      const bundle = await adminBundle(medusaUrl)
      const wanted = [
        "order.details.side.after",
        "location.details.side.after",
        "/settings/lastmile",
        "Set up shipping options",
      ]
      const missing = wanted.filter((w) => !bundle.includes(w))
      if (missing.length) {
        throw new Error(`not in the ${bundle.length}-byte bundle: ${missing.join(", ")}`)
      }
      return `${Math.round(bundle.length / 1024)} KiB of JS crawled from /app`
    })

    await check("the admin session cookie is Secure: sent only to https (X-Forwarded-Proto)", async () => {
      const session = (headers: Record<string, string>) =>
        fetch(`${medusaUrl}/auth/session`, { method: "POST", headers: { ...admin.headers, ...headers } })
      const plain = await session({})
      const proxied = await session({ "x-forwarded-proto": "https" })
      const plainCookie = plain.headers.get("set-cookie")
      const proxiedCookie = proxied.headers.get("set-cookie") ?? ""
      if (plainCookie || !/;\s*Secure/i.test(proxiedCookie)) {
        throw new Error(`plain http set-cookie: ${plainCookie ?? "none"}; behind https: ${proxiedCookie || "none"}`)
      }
      return "no cookie over plain http; Secure cookie with X-Forwarded-Proto: https"
    })

    const store = await setUpStoreOverHttp(admin, ["DEMO-TEE"])
    await check("docs/admin-api.md's mapping and one-click setup create the options", async () => {
      if (!store.setup.created.length) {
        throw new Error(`setup created nothing: ${JSON.stringify(store.setup)}`)
      }
      return `${store.setup.created.length} created`
    })

    const shop = new MedusaHttp(medusaUrl, { "x-publishable-api-key": store.publishableKey })
    let orderId = ""
    await check("a delivery checkout is priced live and placed", async () => {
      const cartId = await newCart(shop, store, store.variantIds["DEMO-TEE"], "shopper@example.com")
      const { rates } = await shop.get<LastmileRatesResponse>(`/store/lastmile/rates?cart_id=${cartId}`)
      const delivery = rates.find((r) => r.type === "delivery" && r.available)
      const collection = rates.find((r) => r.type === "collection" && r.available)
      if (!delivery || !collection) {
        throw new Error(`rates: ${JSON.stringify(rates)}`)
      }
      orderId = await placeOrder(shop, cartId, delivery.shipping_option_id)
      return `delivery ${delivery.amount}, collection ${collection.amount}`
    })

    await check("the order is booked with the service and tracked to delivered by webhooks", async () => {
      if (!orderId) {
        throw new Error("no order was placed")
      }
      const booked = await until("booking", 60_000, async () => {
        const { tasks } = await admin.get<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${orderId}`)
        return tasks.find((t) => t.status === "booked")
      })
      for (let step = 0; step < 6; step++) {
        await fetch(`${simUrl}/__sim/tasks/${booked.task_id}/advance`, { method: "POST" })
      }
      await until("delivered through webhooks", 60_000, async () => {
        const { tasks } = await admin.get<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${orderId}`)
        return tasks.find((t) => t.tracking_state === "delivered")
      })
      return `task ${booked.task_id}`
    })

    await check("the admin's Delivery insights page draws its charts, Recharts resolved through the plugin", () =>
      checkInsightsInApp(medusaUrl, ADMIN, appDir)
    )
  } catch (error) {
    checks.record("the install path", false, error instanceof Error ? error.message : String(error))
  } finally {
    for (const child of children.reverse()) {
      await stopProcess(child)
    }
    await database.stop().catch(() => undefined)
    say(`${checks.summary()}, in ${Math.round((Date.now() - started) / 1000)} s`)
    if (checks.failed) {
      say(logTails(work, ["medusa.log", "simulator.log"], 3000))
    }
    if (process.env.KEEP_APP === "1") {
      say(`kept ${work}`)
    } else {
      rmSync(work, { recursive: true, force: true })
    }
  }
  return checks.failed ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`install: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
