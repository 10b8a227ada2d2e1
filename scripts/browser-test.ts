/**
 * `npm run test:browser`: the real admin of the demo app in Debian's
 * chromium, driven by playwright-core. Starts `npm run demo`, places an order
 * with `npm run demo:checkout`, then: log in, open Settings → Lastmile, see the
 * service's locations, switch collection off for one store and see the
 * service's state change, open the demo order and see its task and tracking
 * link. Screenshots go to test-output/browser/. Exits non-zero on any failure.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { chromium } from "playwright-core"
import { DEMO_ADMIN } from "./demo/demo-settings"

const PORT = Number(process.env.BROWSER_TEST_PORT ?? 9100)
const SIM_PORT = Number(process.env.BROWSER_TEST_SIM_PORT ?? 4110)
const BASE = `http://localhost:${PORT}`
const SIM = `http://127.0.0.1:${SIM_PORT}`
const OUT = join(process.cwd(), "test-output", "browser")
const env = { ...process.env, PORT: String(PORT), LASTMILE_SIM_PORT: String(SIM_PORT) }
const say = (line: string) => process.stdout.write(`browser-test: ${line}\n`)
// Kept in memory until the demo stops: `medusa develop` restarts on any new file in the project.
const shots = new Map<string, Buffer>()

function start(script: string, until?: RegExp): { child: ChildProcess; output: () => string; reached: Promise<void> } {
  const child = spawn("npm", ["run", "--silent", script], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const reached = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += String(chunk)
      if (until?.test(output)) {
        resolve()
      }
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", onData)
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run ${script} exited ${code}:\n${output.slice(-3000)}`))
    )
  })
  return { child, output: () => output, reached }
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) {
    throw new Error(message)
  }
}

async function main(): Promise<void> {
  const demo = start("demo", /demo: ready/)
  try {
    await Promise.race([
      demo.reached,
      new Promise((_, reject) => setTimeout(() => reject(new Error("demo did not start in 5 minutes")), 300_000)),
    ])
    say("demo is up")
    const checkout = start("demo:checkout")
    await checkout.reached
    const orderId = /\/app\/orders\/(order_[A-Z0-9]+)/.exec(checkout.output())?.[1]
    check(orderId, `demo:checkout printed no order:\n${checkout.output()}`)
    const tracking = /Tracking (\S+): (\S+)/.exec(checkout.output())
    check(tracking, "demo:checkout printed no tracking link")
    say(`order ${orderId} delivered by the simulator; tracking ${tracking[1]}`)

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    })
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } })
    page.setDefaultTimeout(120_000)
    try {
      await page.goto(`${BASE}/app/login`)
      await page.fill('input[name="email"]', DEMO_ADMIN.email)
      await page.fill('input[name="password"]', DEMO_ADMIN.password)
      await page.click('button[type="submit"]')
      await page.waitForURL((url) => !url.pathname.endsWith("/login"))
      say("logged in")

      await page.goto(`${BASE}/app/settings/lastmile`)
      await page.getByTestId("lastmile-locations").waitFor()
      await page.getByText("Connected", { exact: true }).waitFor()
      const rows = await page.locator('[data-testid^="lastmile-location-"]').count()
      check(rows === 11, `expected 11 service locations on the settings page, saw ${rows}`)
      check(
        await page
          .getByTestId("lastmile-webhook-url")
          .innerText()
          .then((t) => t.includes("/hooks/lastmile/")),
        "no webhook URL shown"
      )
      await page.screenshot({ fullPage: true }).then((png) => shots.set("settings-lastmile.png", png))
      say(`settings page shows ${rows} locations`)

      const camden = page.getByTestId("lastmile-location-store-camden").getByRole("switch")
      check((await camden.getAttribute("aria-checked")) === "true", "Camden should start with collection on")
      await camden.click()
      await page
        .getByTestId("lastmile-location-store-camden")
        .locator('[role="switch"][aria-checked="false"]')
        .waitFor()
      const locations = (await (await fetch(`${SIM}/__sim/locations`)).json()) as {
        externalLocationId: string
        collectionEnabled: boolean
      }[]
      check(
        locations.find((l) => l.externalLocationId === "store-camden")?.collectionEnabled === false,
        "the service still has collection on at Camden"
      )
      await page.getByText(/Camden store offer\(s\) click and collect in Medusa/).waitFor()
      await page.screenshot({ fullPage: true }).then((png) => shots.set("settings-collection-off.png", png))
      say("collection switched off at Camden: the service agrees, and the check flags it")

      await page.goto(`${BASE}/app/orders/${orderId}`)
      const widget = page.getByTestId("lastmile-order-widget")
      await widget.waitFor()
      const link = widget.getByTestId("lastmile-tracking-link")
      check(
        (await link.getAttribute("href")) === tracking[2],
        "the order widget's tracking link differs from the booked one"
      )
      check(
        (await widget.getByTestId("lastmile-task-state").innerText()).includes("DELIVERED"),
        "the order widget does not show the task delivered"
      )
      await widget.scrollIntoViewIfNeeded()
      await page.screenshot({ fullPage: true }).then((png) => shots.set("order-widget.png", png))
      say("order page shows the task, its status and tracking link")
    } catch (error) {
      await page
        .screenshot({ fullPage: true })
        .then((png) => shots.set("failure.png", png))
        .catch(() => undefined)
      throw error
    } finally {
      await browser.close()
    }
  } finally {
    // The demo stops its database, simulator and Medusa on SIGTERM; give it time, then make sure.
    const stopped = new Promise((resolve) => demo.child.once("exit", resolve))
    if (demo.child.pid && demo.child.exitCode === null) {
      process.kill(-demo.child.pid, "SIGTERM")
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 15_000))])
    }
    mkdirSync(OUT, { recursive: true })
    for (const [name, png] of shots) {
      writeFileSync(join(OUT, name), png)
    }
  }
  say(`passed; screenshots in ${OUT}`)
  // The demo's pipes may outlive it in a stray grandchild; nothing is left to wait for.
  process.exit(0)
}

main().catch((error: unknown) => {
  process.stderr.write(`browser-test: FAILED: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
