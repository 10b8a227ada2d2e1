/** What every browser test does on the demo's storefront: assert, and pay for the bag. */
import type { Page } from "playwright-core"

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) {
    throw new Error(message)
  }
}

/** Pays, and reads the order's id and number off the confirmation. */
export async function placeDemoOrder(page: Page): Promise<{ orderId: string; number: string }> {
  await page.getByTestId("payment-section").waitFor()
  await page.getByTestId("place-order").click()
  const confirmation = page.getByTestId("order-confirmation")
  await confirmation.waitFor()
  const orderId = await confirmation.getAttribute("data-order-id")
  check(orderId, "the confirmation names no order")
  const number = /Order #(\d+)/.exec(await confirmation.innerText())?.[1]
  check(number, "the confirmation shows no order number")
  return { orderId, number }
}
