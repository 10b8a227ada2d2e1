/**
 * The choice a cart lost at its last change (decision 58): its rate could not be priced for the cart as it is now, so
 * the method was removed rather than charged another price under the rate's name.
 */
import type { LastmileLostChoice, LastmileOptionRate } from "medusa-plugin-lastmile-storefront"
import { methodKindOf, readShippingMethodData } from "../contracts/plugin-data"
import { formatMajor } from "../money/money"

/** A shipping method the cart no longer holds, as the cart module keeps it (soft-deleted). */
export interface LostMethod {
  shipping_option_id: string | null
  /** The shipping option's name when it was chosen. */
  name: string | null
  amount: number | null
  data: unknown
}

/** The lost choice in the shopper's words, beside how the option stands now; null when the method was not lastmile's. */
export function lostChoiceOf(
  method: LostMethod | null,
  rates: LastmileOptionRate[],
  currencyCode: string
): LastmileLostChoice | null {
  const data = method ? readShippingMethodData(method.data) : null
  const kind = method ? methodKindOf(method.data) : null
  if (!method || !data || !kind || !method.shipping_option_id) {
    return null
  }
  const name = (kind === "collection" ? data.store?.name : data.rateName) || method.name || "Your delivery"
  const amount = method.amount !== null && Number.isFinite(method.amount) ? method.amount : null
  const price = amount !== null ? ` at ${formatMajor(amount, currencyCode)}` : ""
  const now = rates.find((rate) => rate.shipping_option_id === method.shipping_option_id)
  const why = !now
    ? "It is not offered for your cart as it is now. Please choose another option."
    : !now.available
      ? `It cannot be offered for your cart as it is now: ${now.unavailable_reason ?? "it is unavailable."} Please choose another option.`
      : now.fallback
        ? "Live delivery prices are unavailable right now. Please choose again: the price shown is the shop's estimate."
        : "Please choose again from what your cart is offered now."
  return {
    shipping_option_id: method.shipping_option_id,
    kind,
    name,
    rate_code: kind === "delivery" ? (data.rateCode ?? null) : null,
    amount,
    reason: `Your choice, ${name}${price}, could not be kept when your cart changed. ${why}`,
  }
}
