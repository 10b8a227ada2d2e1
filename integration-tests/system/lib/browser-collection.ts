/**
 * Click and collect to the hand-over (issue 40): the nearest stores, a position, a store's instructions, the code on
 * the confirmation and in the ready email, the merchant's hand-over by code (a wrong one first); axe-core on each.
 */
import type { Browser, Page } from "playwright-core"
import { DEMO_ADMIN, readDemoState } from "../../../demo/settings"
import { auditScreen } from "./browser-a11y"
import { logIn } from "./browser-insights"
import { check, placeDemoOrder } from "./browser-shop"
import { type MedusaHttp, adminLogin } from "./http-store"

export interface CollectionRun {
  /** Medusa (admin and API). */
  base: string
  /** The demo's storefront. */
  shop: string
  /** The simulator's control API. */
  sim: MedusaHttp
  say: (line: string) => void
  shots: Map<string, Buffer>
  docShots: Map<string, Buffer>
  /** Moves the simulator's task until it reaches `value` (each move rings Medusa's webhook). */
  advanceTo: (taskId: number, value: string) => Promise<void>
}

/** The store the test gives words for collecting there (through the admin API), and the shopper stands near. */
const STORE = { name: "Islington store", key: "store-islington" }
export const STORE_INSTRUCTIONS =
  "Ask at the customer service desk upstairs; the step-free entrance is on Gaskin Street."
/** The shopper, at Angel: Islington is the nearest store (about 0.7 km); by postcode (SW1A) it is not among the five. */
const AT_ANGEL = { latitude: 51.532178, longitude: -0.105843 }
const NEAREST_SHOWN = 5

interface SimTask {
  taskId: number
  merchantOrderId: string
}

/** A fresh context and page for one visit; a failure leaves a screenshot of each of its pages. */
async function visit(
  browser: Browser,
  run: CollectionRun,
  name: string,
  use: (page: Page) => Promise<void>,
  options: Parameters<Browser["newContext"]>[0] = {}
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options })
  const page = await context.newPage()
  page.setDefaultTimeout(60_000)
  try {
    await use(page)
  } catch (error) {
    for (const [i, open] of context.pages().entries()) {
      await open
        .screenshot({ fullPage: true })
        .then((png) => run.shots.set(`collection-failure-${name}-${i}.png`, png))
        .catch(() => undefined)
    }
    throw new Error(`collection, ${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  } finally {
    await context.close()
  }
}

/** The bag with a tee, the sample shopper's details (with `email`), and the delivery step. */
async function reachStores(page: Page, run: CollectionRun, email: string): Promise<void> {
  await page.goto(run.shop)
  await page.getByTestId("product-DEMO-TEE").getByRole("button", { name: "Add to bag" }).click()
  await page.getByTestId("bag").waitFor()
  await page.fill("#email", email)
  await page.getByTestId("save-address").click()
  await page.getByTestId("store-choices").waitFor()
}

const storeTitles = async (page: Page) =>
  (await page.getByTestId("collection-choice").getByTestId("choice-title").allInnerTexts()).map((t) => t.trim())

export async function testCollection(browser: Browser, run: CollectionRun): Promise<void> {
  const admin = await adminLogin(run.base, DEMO_ADMIN.email, DEMO_ADMIN.password)
  const { stock_locations } = await admin.get<{ stock_locations: { id: string; name: string }[] }>(
    `/admin/stock-locations?q=${encodeURIComponent(STORE.name)}&fields=id,name&limit=10`
  )
  const storeId = stock_locations.find((l) => l.name === STORE.name)?.id
  check(storeId, `no stock location is named ${STORE.name}`)
  // The store's own words for collecting there, as the location widget saves them.
  const kept = await admin.post<{ instructions: string | null; position: unknown }>(
    `/admin/lastmile/stock-locations/${storeId}/pickup`,
    { instructions: STORE_INSTRUCTIONS }
  )
  check(kept.instructions === STORE_INSTRUCTIONS, `the store kept other instructions: ${JSON.stringify(kept)}`)
  check(kept.position, `${STORE.name} has no position: the demo's seed gives each store one`)

  await visit(browser, run, "stores by postcode", async (page) => {
    await reachStores(page, run, `stores-${Date.now()}@example.com`)
    const list = page.getByTestId("store-choices")
    check((await list.getAttribute("data-order")) === "postcode", "the stores are not in order of the postcode")
    const shown = await storeTitles(page)
    check(shown.length === NEAREST_SHOWN, `the step shows ${shown.length} stores before Show all, not five`)
    const showAll = page.getByTestId("show-all-stores")
    const label = (await showAll.innerText()).trim()
    const more = Number(/^Show all stores \((\d+) more\)$/.exec(label)?.[1])
    check(more > 0, `the button reads "${label}"`)
    await showAll.click()
    await page.locator(`[data-testid="store-choices"][data-shown="${NEAREST_SHOWN + more}"]`).waitFor()
    const all = await storeTitles(page)
    check(
      all.length === NEAREST_SHOWN + more && shown.every((name, i) => all[i] === name),
      `Show all stores listed ${all.join(", ")} after ${shown.join(", ")}`
    )
    await page.getByTestId("stores-status").getByText(`Showing all ${all.length} stores.`).waitFor()
    check(
      await showAll.evaluate((el) => el === document.activeElement),
      "focus left the button once the stores were shown"
    )
    await auditScreen(page, "the delivery step with every store shown")
    // This browser was never allowed the position: the page says what it shows instead.
    await page.getByTestId("use-my-location").click()
    await page.getByTestId("stores-status").getByText("Showing stores by your postcode instead.").waitFor()
    check((await list.getAttribute("data-order")) === "postcode", "the stores moved without a position")
    run.say(
      `collection: the step shows the ${NEAREST_SHOWN} stores nearest the postcode, "${label}" shows all ${all.length}; a refused position says so`
    )
  })

  let orderId = ""
  let code = ""
  await visit(
    browser,
    run,
    "stores near the shopper",
    async (page) => {
      const email = `collect-${Date.now()}@example.com`
      await reachStores(page, run, email)
      // The position leaves the browser only rounded to 3 decimals (about 100 m).
      const [rates] = await Promise.all([
        page.waitForResponse((r) => r.url().includes("/store/lastmile/rates") && r.url().includes("near=")),
        page.getByTestId("use-my-location").click(),
      ])
      const near = new URL(rates.url()).searchParams.get("near")
      check(near === "51.532,-0.106", `the rates were asked near=${near}, not the position rounded to 3 decimals`)
      await page.locator('[data-testid="store-choices"][data-order="distance"]').waitFor()
      await page.getByTestId("stores-status").getByText("Showing the stores nearest you first.").waitFor()
      // Nothing was asked of the browser before the click: the position is the shopper's to give.
      const nearest = page.getByTestId("collection-choice").first()
      const title = (await nearest.getByTestId("choice-title").innerText()).trim()
      check(title === STORE.name, `the nearest store listed first is ${title}, not ${STORE.name}`)
      const distance = (await nearest.getByTestId("choice-distance").innerText()).trim()
      check(/^0\.\d km away$/.test(distance), `${STORE.name} shows "${distance}" as its distance`)
      const instructions = nearest.getByTestId("choice-instructions")
      check((await instructions.innerText()).includes(STORE_INSTRUCTIONS), "the store's row lacks its instructions")
      const radio = nearest.getByTestId("choice-radio")
      const name = (await radio.getAttribute("aria-label")) ?? ""
      check(/^Islington store, .+, 0\.\d kilometres away[,.] /.test(name), `the row is read as: ${name}`)
      const describedBy = ((await radio.getAttribute("aria-describedby")) ?? "").split(" ")
      check(
        describedBy.includes((await instructions.getAttribute("id")) ?? "-"),
        "the store's instructions are not the row's description"
      )
      check((await page.getByTestId("collection-choice").count()) === NEAREST_SHOWN, "more than five stores shown")
      await page
        .screenshot({ fullPage: true })
        .then((png) => void run.docShots.set("storefront-nearest-stores.png", png))
      run.say(`collection: with the position granted, ${title} is first, ${distance}, with the store's instructions`)

      await nearest.click()
      await page.locator('[data-testid="collection-choice"][data-selected="true"][data-pending="false"]').waitFor()
      // The step after the choice still lists the stores nearest the shopper.
      check(
        (await page.getByTestId("store-choices").getAttribute("data-order")) === "distance",
        "the stores went back to the postcode's order after the choice"
      )
      ;({ orderId } = await placeDemoOrder(page))
      const said = page.getByTestId("collection-instructions")
      await said.waitFor()
      check((await said.innerText()).includes(STORE_INSTRUCTIONS), "the confirmation lacks the store's instructions")
      const tracked = page.getByTestId("tracking")
      await page.locator('[data-testid="tracking"][data-status="booked"]').waitFor()
      check((await page.getByTestId("collection-code").count()) === 0, "a code shows before the order is ready")

      const task = (await run.sim.get<SimTask[]>("/__sim/tasks")).find((t) => t.merchantOrderId === orderId)
      check(task, `the simulator has no task for ${orderId}`)
      await run.advanceTo(task.taskId, "READY_FOR_COLLECTION")
      await page.locator('[data-testid="tracking"][data-step="ready_for_collection"]').waitFor()
      const shownCode = page.getByTestId("collection-code")
      await shownCode.waitFor()
      code = (await shownCode.getAttribute("data-code")) ?? ""
      check(/^[A-Z0-9]{6}$/.test(code), `the confirmation's code is "${code}"`)
      // Its two groups drawn apart by a margin: what the page holds (and a copy gives) is the code itself.
      check((await shownCode.innerText()).trim() === code, `the code's text is "${await shownCode.innerText()}"`)
      const shownText = `${code.slice(0, 3)} ${code.slice(3)}`
      const spoken = (await page.getByTestId("collection-code-spoken").textContent())?.trim()
      check(spoken === code.split("").join(" "), `a screen reader hears the code as "${spoken}"`)
      check((await shownCode.getAttribute("aria-hidden")) === "true", "the code is read twice to a screen reader")
      const collectBy = (await page.getByTestId("collect-by").innerText()).trim()
      check(/^\w+day\s\d{1,2}\s\w+,\s\d{2}:\d{2}$/.test(collectBy), `Collect by reads "${collectBy}"`)
      check(
        (await tracked.getByTestId("tracking-status-text").innerText()).trim() === "Ready to collect at the store.",
        "the ready collection does not say so"
      )
      // The code is the shopper's: the booking route answers the same one to whoever holds the order id.
      const demo = readDemoState()
      const booking = (await (
        await fetch(`${run.base}/store/lastmile/orders/${orderId}/booking`, {
          headers: { "x-publishable-api-key": demo.publishableKey },
        })
      ).json()) as { booking: { collection?: { code: string | null; collect_by: string | null } | null } }
      check(
        booking.booking.collection?.code === code,
        `the booking route answers ${JSON.stringify(booking.booking.collection)}`
      )
      await auditScreen(page, "the collection's confirmation with its code")
      await page.getByTestId("collection-ready").scrollIntoViewIfNeeded()
      await page
        .screenshot({ fullPage: true })
        .then((png) => void run.docShots.set("storefront-collection-code.png", png))
      run.say(`collection: order ${orderId} ready at ${STORE.name}: Collect by ${collectBy}, code ${code}`)

      // The ready email carries the code (and the store's words).
      const [mailbox] = await Promise.all([
        page.context().waitForEvent("page"),
        page.getByTestId("mailbox-link").click(),
      ])
      const ready = mailbox.locator(
        '[data-testid="mailbox-message"][data-channel="email"][data-event="collection_ready"]'
      )
      await ready.waitFor()
      const readyText = await ready.innerText()
      // The messages write it in two groups of three ("ACE 479"), as the confirmation shows it.
      check(readyText.includes(shownText), `the ready email does not carry the code ${shownText}: ${readyText}`)
      check(readyText.includes(STORE_INSTRUCTIONS), "the ready email lacks the store's instructions")
      run.say("collection: the mailbox's ready email carries the code and the store's instructions")

      await handOver(browser, run, orderId, code)

      // Handed over: the confirmation says so without a reload, and the shopper is emailed once.
      await page.locator('[data-testid="tracking"][data-status="delivered"]').waitFor()
      check((await page.getByTestId("collection-code").count()) === 0, "the code still shows once collected")
      const collected = mailbox.locator(
        '[data-testid="mailbox-message"][data-channel="email"][data-event="collection_collected"]'
      )
      await collected.waitFor()
      // Two more reads of the mailbox (every 3 s) find no second one.
      for (let reads = 0; reads < 2; reads++) {
        await mailbox.waitForResponse((r) => r.url().includes("/mailbox.json"))
      }
      check((await collected.count()) === 1, `the shopper got ${await collected.count()} "collected" emails`)
      run.say("collection: the shopper's confirmation reads Collected, and the mailbox holds one collected email")
    },
    { geolocation: AT_ANGEL, permissions: ["geolocation"] }
  )

  await pickupSection(browser, run, storeId)
}

/**
 * The merchant hands the collection over in the order widget: a wrong code is refused beside the field, the
 * shopper's code marks it collected.
 */
async function handOver(browser: Browser, run: CollectionRun, orderId: string, code: string): Promise<void> {
  await visit(
    browser,
    run,
    "hand-over",
    async (page) => {
      await logIn(page, run.base, DEMO_ADMIN)
      await page.goto(`${run.base}/app/orders/${orderId}`)
      const block = page.locator('[data-testid="lastmile-collection"][data-state="ready"]')
      await block.waitFor()
      check((await block.getByTestId("lastmile-collect-by").innerText()).includes("Collect by"), "no collect-by")
      await auditScreen(page, "the order widget's collection block", '[data-testid="lastmile-collection"]')

      const field = block.getByTestId("lastmile-hand-over-code")
      const wrong = code === "ZZZ999" ? "YYY888" : "ZZZ999"
      await field.fill(wrong)
      const refused = page.waitForResponse((r) => r.url().includes("/hand-over") && r.status() === 400)
      await block.getByTestId("lastmile-hand-over-submit").click()
      await refused
      const error = block.getByTestId("lastmile-hand-over-error")
      await error.getByText("That code does not match", { exact: false }).waitFor()
      check((await field.getAttribute("aria-invalid")) === "true", "the code field is not marked invalid")
      check(
        ((await field.getAttribute("aria-describedby")) ?? "")
          .split(" ")
          .includes((await error.getAttribute("id")) ?? "-"),
        "the error is not the code field's description"
      )
      await auditScreen(page, "the order widget's hand-over with a wrong code", '[data-testid="lastmile-collection"]')
      await block.scrollIntoViewIfNeeded()
      await page
        .getByTestId("lastmile-order-widget")
        .screenshot()
        .then((png) => void run.docShots.set("order-widget-hand-over.png", png))

      await field.fill(code.toLowerCase())
      const accepted = page.waitForResponse((r) => r.url().includes("/hand-over") && r.status() === 200)
      await block.getByTestId("lastmile-hand-over-submit").click()
      await accepted
      const handed = page.locator('[data-testid="lastmile-collection"][data-state="handed_over"]')
      await handed.waitFor()
      const said = await handed.getByTestId("lastmile-collection-handed-over").innerText()
      check(said.includes("with the shopper's code"), `the widget says: ${said}`)
      run.say(`admin: a wrong code is refused beside the field; ${code} hands the order over ("${said.trim()}")`)
    },
    { viewport: { width: 1440, height: 1000 } }
  )
}

/** The location widget's pickup section shows what the test saved, and passes axe-core. */
async function pickupSection(browser: Browser, run: CollectionRun, storeId: string): Promise<void> {
  await visit(
    browser,
    run,
    "pickup section",
    async (page) => {
      await logIn(page, run.base, DEMO_ADMIN)
      await page.goto(`${run.base}/app/settings/locations/${storeId}`)
      const section = page.getByTestId("lastmile-pickup")
      await section.waitFor()
      check(
        (await section.getByTestId("lastmile-pickup-instructions").inputValue()) === STORE_INSTRUCTIONS,
        "the pickup section does not show the store's instructions"
      )
      check(
        (await section.getByTestId("lastmile-pickup-latitude").inputValue()).startsWith("51.5"),
        "the pickup section does not show the store's position"
      )
      await auditScreen(page, "the location widget's pickup section", '[data-testid="lastmile-pickup"]')
      run.say(
        "admin: the location widget's pickup section shows the instructions and position; axe finds nothing serious"
      )
    },
    { viewport: { width: 1440, height: 1000 } }
  )
}
