/**
 * The browser test's notifications part: a collection's booked and ready messages in the shopper's mailbox (refused to
 * another browser, opened by the run's printed link), and a refused booking on the admin's bell.
 */
import type { Browser, Page } from "playwright-core"
import { DEMO_ADMIN } from "../../../demo/settings"
import { check, placeDemoOrder } from "./browser-shop"
import { adminLogin } from "./http-store"
import type { MedusaHttp } from "./http-store"

export interface NotificationsRun {
  /** Medusa (admin and API). */
  base: string
  /** The demo's storefront. */
  shop: string
  /** The simulator's control API. */
  sim: MedusaHttp
  /** The link to every address's mail that `npm run demo` printed for this run. */
  everyMailbox: string
  say: (line: string) => void
  shots: Map<string, Buffer>
  docShots: Map<string, Buffer>
}

interface SimTask {
  taskId: number
  merchantOrderId: string
  status: { value: string }
}

/** A page whose failure leaves a screenshot named after it. */
async function onPage(browser: Browser, run: NotificationsRun, name: string, use: (page: Page) => Promise<void>) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(60_000)
  try {
    await use(page)
  } catch (error) {
    for (const [i, open] of page.context().pages().entries()) {
      await open
        .screenshot({ fullPage: true })
        .then((png) => run.shots.set(`notifications-failure-${name}-${i}.png`, png))
        .catch(() => undefined)
    }
    throw new Error(`notifications, ${name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  } finally {
    await page.context().close()
  }
}

/** The bag, the shopper's details with their own email, the delivery step; then pays. Returns the order's id and number. */
async function orderAs(page: Page, run: NotificationsRun, email: string, choose: (page: Page) => Promise<void>) {
  await page.goto(run.shop)
  await page.getByTestId("product-DEMO-TEE").getByRole("button", { name: "Add to bag" }).click()
  await page.getByTestId("bag").waitFor()
  await page.fill("#email", email)
  await page.getByTestId("save-address").click()
  await page.getByTestId("delivery-section").waitFor()
  await choose(page)
  return placeDemoOrder(page)
}

export async function testNotifications(browser: Browser, run: NotificationsRun): Promise<void> {
  await onPage(browser, run, "mailbox", async (page) => {
    const email = `mailbox-${Date.now()}@example.com`
    let storeName = ""
    const { orderId, number } = await orderAs(page, run, email, async (p) => {
      const store = p.getByTestId("collection-choice").first()
      storeName = (await store.getByTestId("choice-title").innerText()).trim()
      await store.click()
      await p.locator('[data-testid="collection-choice"][data-selected="true"][data-pending="false"]').waitFor()
    })
    await page.getByTestId("tracking-link").waitFor()

    const [mailbox] = await Promise.all([page.context().waitForEvent("page"), page.getByTestId("mailbox-link").click()])
    await mailbox.getByTestId("mailbox").waitFor()
    const message = (event: string) =>
      mailbox.locator(`[data-testid="mailbox-message"][data-channel="email"][data-event="${event}"]`)
    await message("collection_booked").waitFor()
    const booked = await message("collection_booked").innerText()
    check(
      booked.includes(`#${number}`) && booked.includes(storeName),
      `the booked email names no order or store: ${booked}`
    )

    // The store has it ready: the simulator moves the task, its webhook reaches Medusa, the email follows.
    const task = (await run.sim.get<SimTask[]>("/__sim/tasks")).find((t) => t.merchantOrderId === orderId)
    check(task, `the simulator has no task for ${orderId}`)
    const ready = await run.sim.post<SimTask>(`/__sim/tasks/${task.taskId}/advance`, {})
    check(ready.status.value === "READY_FOR_COLLECTION", `the collection moved to ${ready.status.value}`)
    await message("collection_ready").waitFor()
    // The ready step also goes by text to the order's phone: the mailbox shows it beside the emails.
    await mailbox
      .locator('[data-testid="mailbox-message"][data-channel="sms"][data-event="collection_ready"]')
      .waitFor()
    const listed = mailbox.getByTestId("mailbox-message")
    const events: (string | null)[] = []
    for (let i = 0; i < (await listed.count()); i++) {
      const item = listed.nth(i)
      events.push(`${await item.getAttribute("data-event")}/${await item.getAttribute("data-channel")}`)
    }
    check(
      JSON.stringify(events) ===
        JSON.stringify(["collection_booked/email", "collection_ready/email", "collection_ready/sms"]) ||
        JSON.stringify(events) ===
          JSON.stringify(["collection_booked/email", "collection_ready/sms", "collection_ready/email"]),
      `the mailbox lists ${events.join(", ")}, not the booked email then the ready email and text`
    )
    const text = await mailbox
      .locator('[data-testid="mailbox-message"][data-channel="sms"][data-event="collection_ready"]')
      .innerText()
    check(text.includes(`#${number} is ready to collect`), `the ready text says: ${text}`)
    const readyText = await message("collection_ready").innerText()
    check(
      readyText.includes(`Your order #${number} is ready to collect`) &&
        readyText.includes(`bring your collection code and your order number, #${number}`),
      `the ready email does not say what to bring: ${readyText}`
    )
    await mailbox.screenshot({ fullPage: true }).then((png) => void run.docShots.set("storefront-mailbox.png", png))
    run.say(`notifications: collection order #${number} at ${storeName}: the mailbox shows booked, then ready`)

    // Another browser (no order placed from it) asks for the same address: refused, nothing shown.
    const elsewhere = await page.context().browser()!.newContext()
    try {
      const stranger = await elsewhere.newPage()
      await stranger.goto(`${run.shop}/mailbox?email=${encodeURIComponent(email)}`)
      const refused = await stranger.getByTestId("mailbox-error").innerText()
      check(refused.includes("placed no order for that address"), `another browser is told: ${refused}`)
      check((await stranger.getByTestId("mailbox-message").count()) === 0, "another browser reads the shopper's mail")
      // Whoever runs the demo opens the link it printed, and reads any address's mail in that browser.
      await stranger.goto(run.everyMailbox)
      await stranger.waitForURL((url) => url.pathname === "/mailbox" && !url.search.includes("key"))
      await stranger.goto(`${run.shop}/mailbox?email=${encodeURIComponent(email)}`)
      await stranger
        .locator('[data-testid="mailbox-message"][data-channel="email"][data-event="collection_ready"]')
        .waitFor()
    } finally {
      await elsewhere.close()
    }
    run.say("notifications: another browser cannot read that mailbox; the run's printed link can")
  })

  await onPage(browser, run, "admin feed", async (page) => {
    // The service refuses the next booking: the order waits for the merchant, who is told on the bell.
    await run.sim.post("/__sim/faults", { operation: "bookDelivery", kind: "status", status: 422, times: 1 })
    let number = ""
    let orderId = ""
    try {
      ;({ number, orderId } = await orderAs(page, run, `refused-${Date.now()}@example.com`, async (p) => {
        await p.getByTestId("delivery-choice").first().click()
        await p.locator('[data-testid="delivery-choice"][data-selected="true"]').waitFor()
      }))
      await page.locator('[data-testid="tracking"][data-booking="needs_attention"]').waitFor()
    } finally {
      await run.sim.request("DELETE", "/__sim/faults")
    }
    const admin = await adminLogin(run.base, DEMO_ADMIN.email, DEMO_ADMIN.password)
    const { notifications } = await admin.get<{ notifications: { resource_id: string; template: string }[] }>(
      "/admin/notifications?channel=feed&limit=100"
    )
    const feed = notifications.filter((n) => n.resource_id === orderId).map((n) => n.template)
    check(
      JSON.stringify(feed) === JSON.stringify(["lastmile-merchant-booking-needs-attention"]),
      `the feed holds ${feed.join(", ") || "nothing"} for the refused order`
    )

    await page.goto(`${run.base}/app/login`)
    await page.fill('input[name="email"]', DEMO_ADMIN.email)
    await page.fill('input[name="password"]', DEMO_ADMIN.password)
    await page.click('button[type="submit"]')
    await page.waitForURL((url) => !url.pathname.endsWith("/login"))
    await page.goto(`${run.base}/app/orders/${orderId}`)
    await page.getByTestId("lastmile-order-widget").waitFor()
    // The bell: the drawer trigger in the dashboard's top bar (it has no label; the page has drawers of its own).
    const topbar = page.locator("div.grid.grid-cols-2.border-b").first()
    await topbar.locator('button[aria-haspopup="dialog"]').last().click()
    const drawer = page.getByRole("dialog").filter({ hasText: "Notifications" })
    const alert = drawer.getByText(`Booking needs you: order #${number}`, { exact: true })
    await alert.waitFor()
    const said = await drawer.innerText()
    check(said.includes(`/app/orders/${orderId}`), `the bell's alert does not link the order: ${said}`)
    await page.screenshot().then((png) => void run.docShots.set("admin-feed.png", png))
    run.say(`notifications: the refused booking of #${number} is on the admin's notification bell, once`)
  })
}
