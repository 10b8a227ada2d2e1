/**
 * The browser test's "Send a test" part (decision 61): Settings → Lastmile's Notifications section names each channel's
 * provider, sends every message to an address and a phone typed there, and shows what each provider answered.
 */
import type { Browser } from "playwright-core"
import { DEMO_ADMIN } from "../../../demo/settings"
import { check } from "./browser-shop"
import { logIn } from "./browser-insights"
import { adminLogin } from "./http-store"

export async function testSendATest(
  browser: Browser,
  base: string,
  { say, docShots }: { say: (line: string) => void; docShots: Map<string, Buffer> }
): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } })
  page.setDefaultTimeout(60_000)
  try {
    await logIn(page, base, DEMO_ADMIN)
    await page.goto(`${base}/app/settings/lastmile`)
    const section = page.getByTestId("lastmile-notifications")
    await section.getByTestId("lastmile-notification-channels").waitFor()
    for (const role of ["shopper_email", "shopper_sms", "merchant_feed"]) {
      const provider = await section.getByTestId(`lastmile-notification-provider-${role}`).innerText()
      check(provider.includes("notification-local"), `the ${role} channel names no provider: ${provider}`)
    }
    const email = `send-a-test-${Date.now()}@example.com`
    await section.getByTestId("lastmile-test-email").fill(email)
    await section.getByTestId("lastmile-test-phone").fill("+44 7911 123457")
    await section.getByTestId("lastmile-test-send").click()
    const results = section.getByTestId("lastmile-test-result")
    await section.getByTestId("lastmile-test-results").waitFor()
    const rows = await results.count()
    const answered: string[] = []
    for (let i = 0; i < rows; i++) {
      const row = results.nth(i)
      answered.push(
        `${await row.getAttribute("data-event")}/${await row.getAttribute("data-via")}:${await row.getAttribute("data-status")}`
      )
    }
    // Every message: 11 to the shopper and 5 to the merchant by email, and the 5 shopper's steps that also go by text.
    check(rows === 21, `the test sent ${rows} messages, not the 16 emails and 5 texts: ${answered.join(", ")}`)
    check(
      answered.every((a) => a.endsWith(":sent")),
      `a test message was not sent: ${answered.filter((a) => !a.endsWith(":sent")).join(", ")}`
    )
    check(
      answered.filter((a) => a.includes("/sms:")).length === 5,
      `the texts went for ${answered.filter((a) => a.includes("/sms:")).join(", ")}`
    )
    // What Medusa's Notification Module kept of them: to the address typed, and to the phone in E.164.
    const admin = await adminLogin(base, DEMO_ADMIN.email, DEMO_ADMIN.password)
    const listed = await admin.get<{ notifications: { to: string; channel: string; trigger_type: string }[] }>(
      `/admin/notifications?to=${encodeURIComponent(email)}&limit=100&fields=to,channel,trigger_type`
    )
    check(
      listed.notifications.length === 16 && listed.notifications.every((n) => n.trigger_type === "lastmile.test"),
      `Medusa lists ${listed.notifications.length} test emails to ${email}`
    )
    const texts = await admin.get<{ notifications: { to: string }[] }>(
      "/admin/notifications?to=%2B447911123457&channel=sms&limit=100&fields=to"
    )
    check(texts.notifications.length >= 5, `Medusa lists ${texts.notifications.length} test texts to +447911123457`)
    await section.scrollIntoViewIfNeeded()
    await section.screenshot().then((png) => void docShots.set("settings-notifications.png", png))
    say(`notifications: Send a test sent every message (${rows}) to ${email} and +447911123457, each answered "sent"`)
  } finally {
    await page.close()
  }
}
