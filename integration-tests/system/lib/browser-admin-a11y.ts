/**
 * The merchant's side of the browser test's accessibility checks: the order widget with the shopper's note to the
 * courier, and Delivery insights with each chart's table opened from the keyboard; axe-core on the plugin's part.
 */
import type { Browser } from "playwright-core"
import { DEMO_ADMIN } from "../../../demo/settings"
import { auditScreen, tabTo } from "./browser-a11y"
import { logIn } from "./browser-insights"
import { check } from "./browser-shop"

/** The order page in a merchant's own browser: the note as the shopper wrote it, said sent, and the widget's rules. */
export async function auditOrderWidget(
  browser: Browser,
  { base, orderId, note, say }: { base: string; orderId: string; note: string; say: (line: string) => void }
): Promise<void> {
  const merchant = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
  const page = await merchant.newPage()
  page.setDefaultTimeout(120_000)
  try {
    await logIn(page, base, DEMO_ADMIN)
    await page.goto(`${base}/app/orders/${orderId}`)
    const widget = page.getByTestId("lastmile-order-widget")
    const shown = widget.getByTestId("lastmile-delivery-note")
    await shown.waitFor()
    check(
      (await shown.innerText()).includes(note),
      `the order widget does not show the shopper's note: ${await shown.innerText()}`
    )
    check((await shown.getAttribute("data-sent")) === "sent", "the order widget does not say the note was sent")
    await auditScreen(page, "the order widget", '[data-testid="lastmile-order-widget"]')
    say(`admin: the order widget shows the shopper's note, sent with the booking; axe-core finds nothing serious`)
  } finally {
    await merchant.close()
  }
}

/** Delivery insights: each chart's figures opened as a table with the keyboard, then axe-core on the page's part. */
export async function auditInsightsPage(
  browser: Browser,
  { base, say }: { base: string; say: (line: string) => void }
): Promise<void> {
  const merchant = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
  const page = await merchant.newPage()
  page.setDefaultTimeout(120_000)
  try {
    await logIn(page, base, DEMO_ADMIN)
    await page.goto(`${base}/app/insights`)
    await page.getByTestId("insights-kpis").waitFor()
    const summaries = page.locator('[data-testid^="insights-table-"] > summary')
    await summaries.first().waitFor()
    const tables = await summaries.count()
    // From the page's own first control: the dashboard's frame before it is Medusa's.
    await page.getByTestId("insights-csv").focus()
    for (let i = 0; i < tables; i++) {
      await tabTo(page, summaries.nth(i), `the figures of chart ${i + 1}`)
      await page.keyboard.press("Enter")
    }
    const opened = await page.locator('[data-testid^="insights-table-"][open] table tbody tr').count()
    check(
      tables > 0 && opened > 0,
      `the charts' tables did not open from the keyboard (${tables} tables, ${opened} rows)`
    )
    await auditScreen(page, "Delivery insights, its tables open", '[data-testid="insights-page"]')
    say(
      `admin: Delivery insights' ${tables} charts each open a table of ${opened} rows in all from the keyboard; axe-core finds nothing serious`
    )
  } finally {
    await merchant.close()
  }
}
