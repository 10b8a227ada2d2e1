/** One way to write a delivery price, so a choice's row and the cart's summary read the same. */
import { formatAmount } from "medusa-plugin-lastmile-storefront"
import { DISPLAY } from "./shop"

export function deliveryPrice(amount: number, currencyCode: string): string {
  return amount === 0 ? "Free" : formatAmount(amount, currencyCode, DISPLAY)
}
