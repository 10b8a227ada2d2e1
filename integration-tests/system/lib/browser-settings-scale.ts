/**
 * Settings → Lastmile at 150 stores (140 more at the simulator, for a moment): a search, a page forward, and a click
 * and a keystroke answered within 200 ms (the Event Timing API's entries, and the next frame).
 */
// The functions handed to the page run in it: they are typed with the DOM.
/// <reference lib="dom" />
import type { Browser, Page } from "playwright-core"
import { DEMO_ADMIN } from "../../../demo/settings"
import { logIn } from "./browser-insights"
import { check } from "./browser-shop"
import { type MedusaHttp, adminLogin } from "./http-store"

export interface ScaleRun {
  base: string
  sim: MedusaHttp
  say: (line: string) => void
  shots: Map<string, Buffer>
}

/** How long a click or a keystroke took to answer, in ms: the largest of its Event Timing entries and of its frames. */
export interface Responsiveness {
  clickMs: number
  keyMs: number
  /**
   * Each measure, for the run's report; `pageShown`: from a click on Next to the frame that shows the new page's rows
   * (rendered as a transition, after the click is answered).
   */
  detail: { eventTiming: Record<string, number>; nextFrame: Record<string, number>; pageShown: number }
  /** The first measure, when it was over the limit and the page was measured again. */
  first?: Responsiveness
}

const ADDED = 140
const LIMIT_MS = 200
/** How many times each interaction is measured: the largest counts. */
const REPEATS = 3

interface SimLocationListed {
  fulfilmentLocationId: string
  externalLocationId: string | null
  name: string
  [field: string]: unknown
}

/** A store the merchant has at the service and not (yet) in Medusa: no collection, no stock, so checkout is untouched. */
function addedStore(i: number, template: SimLocationListed) {
  const n = String(i).padStart(3, "0")
  return {
    ...template,
    fulfilmentLocationId: `fl_scale_${n}`,
    externalLocationId: `scale-store-${n}`,
    name: `Scale test store ${n}`,
    address: { line1: `${i} Market Street`, city: "Reading", postcode: "RG1 1AA", country: "United Kingdom" },
    collectionEnabled: false,
    deliveryEnabled: false,
    stock: {},
  }
}

export async function testSettingsAtScale(browser: Browser, run: ScaleRun): Promise<Responsiveness> {
  const original = await run.sim.get<SimLocationListed[]>("/__sim/locations")
  const template = original.find((l) => l.externalLocationId?.startsWith("store-"))
  check(template, "the simulator holds no store to copy")
  const stores = original.filter((l) => l.externalLocationId?.startsWith("store-")).length
  const added = Array.from({ length: ADDED }, (_, i) => addedStore(i + 1, template))
  await run.sim.request("PUT", "/__sim/locations", [...original, ...added])
  const total = original.length + ADDED
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
  const page = await context.newPage()
  page.setDefaultTimeout(120_000)
  try {
    await logIn(page, run.base, DEMO_ADMIN)
    await page.goto(`${run.base}/app/settings/lastmile`)
    const count = page.getByTestId("lastmile-location-count")
    await count.getByText(`${total} of ${total} locations`, { exact: true }).waitFor()
    run.say(`settings at scale: ${stores + ADDED} stores (${total} locations) listed, 25 a page`)

    const search = page.getByTestId("lastmile-location-search")
    const wanted = "Scale test store 137"
    await search.fill(wanted)
    await page.locator(`[data-testid="lastmile-locations"][data-query="${wanted}"]`).waitFor()
    await count.getByText(`1 of ${total} locations`, { exact: true }).waitFor()
    const rows = page.locator("[data-fulfilment-location-id]")
    check((await rows.count()) === 1, `searching "${wanted}" shows ${await rows.count()} rows`)
    check(
      (await rows.first().getAttribute("data-fulfilment-location-id")) === "fl_scale_137",
      "the search found another location"
    )
    await search.fill("")
    await page.locator('[data-testid="lastmile-locations"][data-query=""]').waitFor()
    await page.getByTestId("lastmile-location-page").getByText("Page 1 of 7", { exact: true }).waitFor()

    let measured = await measure(page)
    const over = (m: Responsiveness) => m.clickMs > LIMIT_MS || m.keyMs > LIMIT_MS
    if (over(measured)) {
      // The machine is shared: a neighbour's burst is told apart from the page's own cost by measuring once more.
      run.say(
        `settings at scale: a click took ${measured.clickMs} ms, a keystroke ${measured.keyMs} ms (${JSON.stringify(measured.detail)}); measuring again`
      )
      await page.reload()
      await count.getByText(`${total} of ${total} locations`, { exact: true }).waitFor()
      measured = { ...(await measure(page)), first: measured }
    }
    check(
      !over(measured),
      `Settings → Lastmile at ${total} locations answers a click in ${measured.clickMs} ms and a keystroke in ${measured.keyMs} ms (at most ${LIMIT_MS}): ${JSON.stringify(measured.detail)}`
    )
    run.say(
      `settings at scale: found "${wanted}" (1 of ${total} locations), paged forward; a click answers in ${measured.clickMs} ms, a keystroke in ${measured.keyMs} ms (the largest of ${REPEATS}, Event Timing and next frame), the next page's rows drawn ${measured.detail.pageShown} ms after the click`
    )
    return measured
  } catch (error) {
    await page
      .screenshot({ fullPage: true })
      .then((png) => run.shots.set("settings-scale-failure.png", png))
      .catch(() => undefined)
    throw error
  } finally {
    await context.close()
    // The service's list as it was; the plugin's store list is read again with the overview.
    await run.sim.request("PUT", "/__sim/locations", original)
    await adminOverview(run.base)
  }
}

/** GET /admin/lastmile: the plugin reads the service's locations afresh and hands them to checkout's store list. */
async function adminOverview(base: string): Promise<void> {
  const admin = await adminLogin(base, DEMO_ADMIN.email, DEMO_ADMIN.password)
  await admin.get("/admin/lastmile")
}

/**
 * Pages forward (a click on Next) and types into the search (a keystroke), `REPEATS` times each, and reads how long
 * each took to answer: the Event Timing API's `event` entries (`durationThreshold: 16`: from the input to the next
 * paint, handlers and rendering included; none means under 16 ms) and, beside them, the time from the event to the
 * frame after it (a requestAnimationFrame, then a task).
 */
async function measure(page: Page): Promise<Responsiveness> {
  await page.evaluate(() => {
    const w = window as unknown as {
      lmEvents: { name: string; duration: number }[]
      lmFrames: { type: string; ms: number }[]
    }
    w.lmEvents = []
    w.lmFrames = []
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        w.lmEvents.push({ name: entry.name, duration: entry.duration })
      }
    }).observe({ type: "event", durationThreshold: 16, buffered: false } as PerformanceObserverInit)
    for (const type of ["click", "keydown"]) {
      document.addEventListener(
        type,
        (event) => {
          const start = event.timeStamp
          requestAnimationFrame(() => setTimeout(() => w.lmFrames.push({ type, ms: performance.now() - start }), 0))
          if (type !== "click") {
            return
          }
          // And the frame that shows the next page: the pager's "Page N of M" changes with the rows.
          const pager = document.querySelector('[data-testid="lastmile-location-page"]')
          const before = pager?.textContent
          const watch = new MutationObserver(() => {
            if (pager?.textContent !== before) {
              watch.disconnect()
              requestAnimationFrame(() =>
                setTimeout(() => w.lmFrames.push({ type: "page", ms: performance.now() - start }), 0)
              )
            }
          })
          if (pager) {
            watch.observe(pager, { subtree: true, characterData: true, childList: true })
          }
        },
        { capture: true }
      )
    }
  })
  const frames = () => page.evaluate(() => (window as unknown as { lmFrames: unknown[] }).lmFrames.length)
  const next = page.getByTestId("lastmile-location-page-next")
  for (let i = 0; i < REPEATS; i++) {
    const before = await frames()
    await next.click()
    await page
      .getByTestId("lastmile-location-page")
      .getByText(`Page ${i + 2} of 7`, { exact: true })
      .waitFor()
    // The click's frame and the new page's.
    await page.waitForFunction((n) => (window as unknown as { lmFrames: unknown[] }).lmFrames.length > n + 1, before)
  }
  const search = page.getByTestId("lastmile-location-search")
  await search.click()
  for (const key of "Sca".slice(0, REPEATS)) {
    const before = await frames()
    await page.keyboard.press(key)
    await page.waitForFunction((n) => (window as unknown as { lmFrames: unknown[] }).lmFrames.length > n, before)
  }
  await page.locator('[data-testid="lastmile-locations"][data-query="Sca"]').waitFor()
  // Event Timing entries are delivered after the paint that ends them: two frames more, then read.
  const { events, frames: timed } = await page.evaluate(
    () =>
      new Promise<{ events: { name: string; duration: number }[]; frames: { type: string; ms: number }[] }>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              const w = window as unknown as {
                lmEvents: { name: string; duration: number }[]
                lmFrames: { type: string; ms: number }[]
              }
              resolve({ events: w.lmEvents, frames: w.lmFrames })
            }, 50)
          )
        )
      )
  )
  const largest = (values: number[]) => Math.round(Math.max(0, ...values))
  const ofEvents = (names: string[]) => largest(events.filter((e) => names.includes(e.name)).map((e) => e.duration))
  const ofFrames = (type: string) => largest(timed.filter((f) => f.type === type).map((f) => f.ms))
  const eventTiming = {
    click: ofEvents(["pointerdown", "pointerup", "mousedown", "mouseup", "click"]),
    keystroke: ofEvents(["keydown", "keypress", "keyup", "beforeinput", "input"]),
  }
  const nextFrame = { click: ofFrames("click"), keystroke: ofFrames("keydown") }
  return {
    clickMs: Math.max(eventTiming.click, nextFrame.click),
    keyMs: Math.max(eventTiming.keystroke, nextFrame.keystroke),
    detail: { eventTiming, nextFrame, pageShown: ofFrames("page") },
  }
}
