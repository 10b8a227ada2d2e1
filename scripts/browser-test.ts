/**
 * `npm run test:browser`: the demo app in Debian's chromium, driven by
 * playwright-core. Starts `npm run demo`, places an order with
 * `npm run demo:checkout`, then, in the admin: log in, open Settings →
 * Lastmile, see the service's locations, switch collection off for one store
 * and see the service's state change, open the demo order and see its task
 * and tracking link. Then, as a shopper on the demo's storefront: a delivery
 * order and a click-and-collect order placed by clicking, each confirmation
 * showing the tracking link and the status moving as the simulator advances
 * the task; a phone the courier cannot dial, an address the service does not
 * serve, and the service down (delivery at the fallback price, as an
 * estimate). The admin's screenshots go to test-output/browser/, the
 * storefront's to docs/screenshots/. Exits non-zero on any failure.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { type Browser, type Page, chromium } from "playwright-core"
import { DEMO_ADMIN } from "./demo/demo-settings"

const PORT = Number(process.env.BROWSER_TEST_PORT ?? 9100)
const SIM_PORT = Number(process.env.BROWSER_TEST_SIM_PORT ?? 4110)
const SHOP_PORT = Number(process.env.BROWSER_TEST_STOREFRONT_PORT ?? 8100)
const BASE = `http://localhost:${PORT}`
const SIM = `http://127.0.0.1:${SIM_PORT}`
const SHOP = `http://localhost:${SHOP_PORT}`
const OUT = join(process.cwd(), "test-output", "browser")
const SHOP_SHOTS = join(process.cwd(), "docs", "screenshots")
const env = {
  ...process.env,
  PORT: String(PORT),
  LASTMILE_SIM_PORT: String(SIM_PORT),
  STOREFRONT_PORT: String(SHOP_PORT),
}
const say = (line: string) => process.stdout.write(`browser-test: ${line}\n`)
// Kept in memory until the demo stops: `medusa develop` restarts on any new file in the project.
const shots = new Map<string, Buffer>()
const shopShots = new Map<string, Buffer>()

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
    try {
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
        await page.close()
      }
      await testStorefront(browser)
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
  // The storefront's screenshots illustrate the docs: replaced only by a run that passed.
  mkdirSync(SHOP_SHOTS, { recursive: true })
  for (const [name, png] of shopShots) {
    writeFileSync(join(SHOP_SHOTS, name), png)
  }
  say(`passed; screenshots in ${OUT} and ${SHOP_SHOTS}`)
  // The demo's pipes may outlive it in a stray grandchild; nothing is left to wait for.
  process.exit(0)
}

interface SimTask {
  taskId: number
  merchantOrderId: string
  trackingUrl: string
  status: { value: string }
}

async function sim<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${SIM}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  check(response.ok, `${method} ${path} at the simulator answered ${response.status}`)
  const text = await response.text()
  return (text ? JSON.parse(text) : null) as T
}

/** The simulator's task booked for an order. */
async function taskOf(orderId: string): Promise<SimTask> {
  const task = (await sim<SimTask[]>("GET", "/__sim/tasks")).find((t) => t.merchantOrderId === orderId)
  check(task, `the simulator has no task for ${orderId}`)
  return task
}

/** Moves the task along at the simulator (each step sends Medusa a webhook) until it reaches `value`. */
async function advanceTo(taskId: number, value: string): Promise<void> {
  for (let moves = 0; moves < 10; moves++) {
    const task = await sim<SimTask>("POST", `/__sim/tasks/${taskId}/advance`, {})
    if (task.status.value === value) {
      return
    }
  }
  throw new Error(`task ${taskId} never reached ${value}`)
}

/**
 * One shopper's visit: a fresh page (a new cart), closed afterwards; a failure
 * leaves a screenshot named after the visit.
 */
async function asShopper(browser: Browser, visit: string, run: (page: Page) => Promise<void>): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(60_000)
  try {
    await page.goto(SHOP)
    await run(page)
  } catch (error) {
    await page
      .screenshot({ fullPage: true })
      .then((png) => shots.set(`storefront-failure-${visit}.png`, png))
      .catch(() => undefined)
    throw new Error(`storefront, ${visit}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  } finally {
    await page.close()
  }
}

/** Adds one product to the bag, fills the details (the sample shopper, changed by `details`) and loads the step. */
async function reachDeliveryStep(page: Page, sku: string, details: Record<string, string> = {}): Promise<void> {
  await page.getByTestId(`product-${sku}`).getByRole("button", { name: "Add to bag" }).click()
  await page.getByTestId("bag").waitFor()
  for (const [field, value] of Object.entries(details)) {
    await page.fill(`#${field}`, value)
  }
  await page.getByTestId("save-address").click()
  await page.getByTestId("delivery-section").waitFor()
}

/** Pays, and reads the order id off the confirmation. */
async function placeOrder(page: Page): Promise<string> {
  await page.getByTestId("payment-section").waitFor()
  await page.getByTestId("place-order").click()
  const confirmation = page.getByTestId("order-confirmation")
  await confirmation.waitFor()
  const orderId = await confirmation.getAttribute("data-order-id")
  check(orderId, "the confirmation names no order")
  return orderId
}

/** The confirmation's tracking link, once the plugin has booked the order: the simulator's own. */
async function bookedTask(page: Page, orderId: string): Promise<SimTask> {
  const link = page.getByTestId("tracking-link")
  await link.waitFor()
  const task = await taskOf(orderId)
  check((await link.getAttribute("href")) === task.trackingUrl, "the page's tracking link differs from the booked one")
  return task
}

const snap = (page: Page, name: string) =>
  page.screenshot({ fullPage: true }).then((png) => void shopShots.set(name, png))

async function testStorefront(browser: Browser): Promise<void> {
  await asShopper(browser, "delivery", async (page) => {
    await reachDeliveryStep(page, "DEMO-TEE")
    const rate = page.getByTestId("delivery-choice").first()
    await rate.waitFor()
    check((await rate.getByTestId("choice-window").innerText()).trim(), "the delivery rate shows no window")
    check((await rate.getByTestId("co2-badge").innerText()).includes("CO₂"), "the delivery rate shows no CO₂ saving")
    const stores = await page.getByTestId("collection-choice").count()
    check(stores >= 5, `expected the stores stocking the tee to offer collection, saw ${stores}`)
    const unavailable = await page.getByTestId("unavailable-options").innerText()
    check(unavailable.includes("Camden"), "Camden, switched off in the admin, is not listed as unavailable")
    await snap(page, "storefront-delivery-step.png")
    await rate.click()
    await page.locator('[data-testid="delivery-choice"][data-selected="true"]').waitFor()
    const orderId = await placeOrder(page)
    const task = await bookedTask(page, orderId)
    await advanceTo(task.taskId, "PICKED_UP")
    await page.locator('[data-testid="tracking"][data-status="shipped"]').waitFor()
    await advanceTo(task.taskId, "DELIVERED")
    await page.locator('[data-testid="tracking"][data-status="delivered"]').waitFor()
    await snap(page, "storefront-confirmation.png")
    say(`storefront: delivery order ${orderId} placed by clicking, tracked from booked to delivered`)
  })

  await asShopper(browser, "collection", async (page) => {
    await reachDeliveryStep(page, "DEMO-MUG")
    const unavailable = await page.getByTestId("unavailable-options").innerText()
    check(
      unavailable.includes("This store cannot offer collection for this cart."),
      "no store is listed as unable to offer the mug (every third store has none)"
    )
    const store = page.getByTestId("collection-choice").first()
    const storeName = await store.getByTestId("choice-title").innerText()
    await store.click()
    await page.locator('[data-testid="collection-choice"][data-selected="true"][data-pending="false"]').waitFor()
    await page.getByTestId("payment-section").waitFor()
    await snap(page, "storefront-collection.png")
    const orderId = await placeOrder(page)
    const task = await bookedTask(page, orderId)
    check(
      (await page.getByTestId("tracking").innerText()).includes(storeName),
      `the confirmation does not name the store ${storeName}`
    )
    await advanceTo(task.taskId, "PICKED_UP")
    await page.locator('[data-testid="tracking"][data-status="shipped"]').waitFor()
    await snap(page, "storefront-collection-confirmation.png")
    say(`storefront: collection order ${orderId} from ${storeName}, booked and on its way to the store`)
  })

  await asShopper(browser, "bad phone", async (page) => {
    await reachDeliveryStep(page, "DEMO-TEE", { phone: "123" })
    const notice = page.getByTestId("missing-details")
    await notice.waitFor()
    const text = await notice.innerText()
    check(text.includes("Enter a phone number that can be dialled"), `unexpected message for the phone 123: ${text}`)
    check((await page.getByTestId("delivery-choice").count()) === 0, "a rate is offered without a phone to dial")
    await snap(page, "storefront-bad-phone.png")
    say(`storefront: the phone 123 is refused in words: "${text.split("\n")[0]}"`)
  })

  await asShopper(browser, "not served", async (page) => {
    await reachDeliveryStep(page, "DEMO-TEE", { street: "1 Commercial Street", city: "Lerwick", postcode: "ZE1 0AA" })
    await page.getByTestId("nothing-offered").waitFor()
    const reasons = await page.getByTestId("unavailable-options").innerText()
    check(reasons.includes("does not deliver to this address"), `unexpected reasons for ZE1 0AA: ${reasons}`)
    await snap(page, "storefront-not-served.png")
    say("storefront: an address the service does not serve is told so")
  })

  await sim("POST", "/__sim/faults", { operation: "quote", kind: "status", status: 503 })
  try {
    await asShopper(browser, "service down", async (page) => {
      await reachDeliveryStep(page, "DEMO-TEE")
      const rate = page.getByTestId("delivery-choice").first()
      await rate.getByTestId("estimate-badge").waitFor()
      const price = await rate.getByTestId("choice-price").innerText()
      check(price.includes("5.95"), `the delivery is not at the fallback price during the outage: ${price}`)
      await page.getByTestId("estimate-notice").waitFor()
      check((await page.getByTestId("collection-choice").count()) === 0, "stores are offered during an outage")
      await snap(page, "storefront-service-down.png")
      say(`storefront: with the service down, delivery is offered at ${price}, marked as an estimate`)
    })
  } finally {
    await sim("DELETE", "/__sim/faults")
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`browser-test: FAILED: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
