/**
 * Delivery insights in a real browser: the admin page's Recharts charts, on the demo's month of history (the browser
 * test, which screenshots it) and in the install test's app (which proves the app's admin build finds Recharts).
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join, relative } from "node:path"
import { type Browser, type Page, chromium } from "playwright-core"
import type { InsightsReport } from "../../../src/lib/contracts/insights-api"
import { seedDemoHistory } from "../../../demo/history"
import { DEMO_ADMIN, readDemoState } from "../../../demo/settings"
import { check } from "./browser-shop"

const CHARTS = ["offers", "on-time", "co2", "latency", "failures"] as const
type ChartId = (typeof CHARTS)[number]

export async function logIn(page: Page, base: string, admin: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/app/login`)
  await page.fill('input[name="email"]', admin.email)
  await page.fill('input[name="password"]', admin.password)
  await page.click('button[type="submit"]')
  await page.waitForURL((url) => !url.pathname.endsWith("/login"))
}

/**
 * Opens Delivery insights from the sidebar and checks that each chart named
 * in `drawn` is drawn with bars or a line (an SVG of Recharts' own), and
 * answers what the page's route said. The page must be logged in.
 */
export async function openInsightsPage(page: Page, base: string, drawn: ChartId[]): Promise<InsightsReport> {
  await page.goto(`${base}/app`)
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().includes("/admin/lastmile/insights?") && r.ok()),
    page.getByRole("link", { name: "Delivery insights" }).first().click(),
  ])
  await page.getByTestId("insights-page").waitFor()
  const report = (await answer.json()) as InsightsReport
  await page.getByTestId("insights-kpis").waitFor()
  for (const id of drawn) {
    const chart = page.locator(`[data-testid="insights-chart-${id}"][data-empty="false"]`)
    await chart.waitFor()
    await chart.locator("svg.recharts-surface").first().waitFor()
    const marks = await chart.locator(".recharts-bar-rectangle path, .recharts-line-curve").count()
    check(marks > 0, `the ${id} chart has no bar or line drawn`)
  }
  return report
}

/** The browser test's part: the demo's history made, then the page with every chart, a store, a period, the CSV. */
export async function testInsights(
  browser: Browser,
  base: string,
  { say, docShots }: { say: (line: string) => void; docShots: Map<string, Buffer> }
): Promise<void> {
  const state = readDemoState()
  const made = await seedDemoHistory({ ...state, admin: DEMO_ADMIN, say })
  check(made.orders > 0, "the demo history placed no order")
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } })
  page.setDefaultTimeout(60_000)
  try {
    await logIn(page, base, DEMO_ADMIN)
    const report = await openInsightsPage(page, base, [...CHARTS])
    check(report.demo_tasks > 0, "the report counts no demo task")
    await page.getByTestId("insights-demo-badge").waitFor()
    const onTime = await page.getByTestId("insights-kpi-on-time").innerText()
    check(/\d+%/.test(onTime), `the on-time figure is not a share: ${onTime}`)
    check(
      report.deliveries.late > 0 && report.collections.not_collected > 0,
      "the history has no late or uncollected parcel"
    )
    check(report.booking.failed > 0, "the history has no failed booking")
    say(
      `insights: ${report.offers.carts} carts, ${report.deliveries.delivered} delivered (${report.deliveries.late} late), ${report.collections.collected} collected, ${report.booking.failed} failed, all five charts drawn`
    )
    // Tall enough for the whole page: the README's screenshot.
    await page.setViewportSize({ width: 1440, height: 2400 })
    await page
      .getByTestId("insights-page")
      .screenshot()
      .then((png) => void docShots.set("insights.png", png))
    await page.setViewportSize({ width: 1440, height: 1000 })

    // One store: the figures asked for again, filtered.
    const store = report.stores.find((s) =>
      report.offers.by_option.some((o) => o.kind === "collection" && o.stock_location_id === s.id)
    )
    check(store, "no store to filter by")
    await page.getByTestId("insights-store-filter").click()
    const [filtered] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`stock_location_id=${store.id}`) && r.ok()),
      page.getByRole("option", { name: store.name, exact: true }).click(),
    ])
    const byStore = (await filtered.json()) as InsightsReport
    check(
      byStore.offers.by_option.every((o) => o.stock_location_id === store.id),
      "the store filter shows other stores"
    )
    await page
      .locator('[data-testid="insights-chart-offers"][data-empty="false"] .recharts-bar-rectangle')
      .first()
      .waitFor()
    say(`insights: filtered to ${store.name}: ${byStore.collections.booked} collection(s) booked`)

    // Another period, compared with the one before it.
    await page.getByTestId("insights-period").click()
    const [week] = await Promise.all([
      page.waitForResponse((r) => r.url().includes("/admin/lastmile/insights?") && r.ok()),
      page.getByRole("option", { name: "Last 7 days", exact: true }).click(),
    ])
    const lastWeek = (await week.json()) as InsightsReport
    check(
      lastWeek.period.from > report.period.from && lastWeek.previous.period.to < lastWeek.period.from,
      `the 7-day period is wrong: ${JSON.stringify(lastWeek.period)}`
    )
    await page.getByTestId("insights-kpi-delivered").getByText("before:").waitFor()

    const csv = await page.request.get(`${base}${await page.getByTestId("insights-csv").getAttribute("href")}`)
    check(csv.ok() && (csv.headers()["content-type"] ?? "").startsWith("text/csv"), `the CSV answered ${csv.status()}`)
    check((await csv.text()).includes("deliveries,delivered,"), "the CSV has no deliveries")
    say("insights: a 7-day period compared with the week before, and the CSV download")
  } finally {
    await page.close()
  }
}

/**
 * The install test's part: the merchant's app never listed Recharts, yet its
 * admin build resolved it (through the plugin's dependencies) and the page
 * draws its charts in chromium. Answers what it found.
 */
export async function checkInsightsInApp(
  base: string,
  admin: { email: string; password: string },
  appDir: string
): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>
  }
  check(!manifest.dependencies?.recharts, "the app lists recharts itself: the test would prove nothing")
  const recharts = createRequire(join(appDir, "package.json")).resolve("recharts/package.json")
  const version = (JSON.parse(readFileSync(recharts, "utf8")) as { version: string }).version
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  })
  try {
    // In production the session cookie is Secure: the app is told it is reached over https, as behind a proxy.
    const context = await browser.newContext({
      viewport: { width: 1440, height: 1000 },
      extraHTTPHeaders: { "x-forwarded-proto": "https" },
    })
    const page = await context.newPage()
    page.setDefaultTimeout(60_000)
    try {
      await logIn(page, base, admin)
      const report = await openInsightsPage(page, base, ["offers", "on-time", "latency"])
      return `recharts ${version} installed with the plugin (${relative(appDir, recharts)}); offers, on-time and latency drawn for ${report.deliveries.delivered} delivery`
    } catch (error) {
      const out = join(process.cwd(), "test-output")
      mkdirSync(out, { recursive: true })
      await page.screenshot({ path: join(out, "install-insights-failure.png"), fullPage: true }).catch(() => undefined)
      throw error
    }
  } finally {
    await browser.close()
  }
}
