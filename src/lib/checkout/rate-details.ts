/**
 * What a storefront shows for one option besides its amount (the rate's text and window, or why it cannot be
 * offered, in words), carried in the provider's price result; its types are the storefront package's (decision 34).
 */
import type { LastmileDeliveryRate, LastmileRateDetails } from "medusa-plugin-lastmile-storefront"
import type { ServiceRate } from "../contracts/service-shapes"
import type { PricingResult } from "./pricing-result"
import type { LastmileFulfillmentOption } from "../contracts/fulfillment-options"
import { formatMajor, minorToMajor } from "../money/money"
import type { DeliveryRates } from "./rate-selection"

export type { LastmileDeliveryRate, LastmileRateDetails } from "medusa-plugin-lastmile-storefront"

const NO_DETAILS: Omit<LastmileRateDetails, "available" | "unavailable_code" | "unavailable_reason"> = {
  unavailable_fields: [],
  rate_code: null,
  delivery_type: null,
  name: null,
  description: null,
  window: null,
  co2_savings: null,
  eligibility: null,
  merchant_location_id: null,
  fallback: false,
  kept: false,
  rates: [],
  quoted_at: null,
}

/** The shopper-facing sentence for an option that cannot be offered. */
export function shopperReason(
  option: Pick<LastmileFulfillmentOption, "kind">,
  result: Pick<PricingResult & { ok: false }, "reason" | "detail">
): string {
  const collection = option.kind === "collection"
  switch (result.reason) {
    case "input_incomplete":
    case "rate_code_invalid":
    case "rate_error":
      return result.detail
    // A store is told in its own words: a shopper collecting is never given a delivery's reason.
    case "service_unavailable":
      return collection
        ? "Collection cannot be confirmed right now. Please try again in a moment."
        : "Live delivery prices are unavailable right now. Please try again in a moment."
    case "service_refused":
      return "This option is unavailable right now. Please choose another option."
    case "route_not_served":
      return collection
        ? "Collection is not offered for this address."
        : "This service does not deliver to this address."
    case "currency_mismatch":
      return "This option is not available in the cart's currency."
    case "store_ambiguous":
    case "store_not_mapped":
      return "Collection from this store cannot be confirmed right now."
    case "invalid_price":
      return "This option could not be priced right now."
    case "rate_missing":
    default:
      return collection
        ? "This store cannot offer collection for this cart."
        : "This delivery option is not offered for this cart."
  }
}

export function describePricing(option: LastmileFulfillmentOption, result: PricingResult): LastmileRateDetails {
  const shared = {
    ...NO_DETAILS,
    eligibility: result.eligibility ?? null,
    merchant_location_id: result.merchantLocationId ?? null,
    delivery_type: option.delivery_type ?? null,
    quoted_at: result.quotedAt !== undefined ? new Date(result.quotedAt).toISOString() : null,
  }
  const rates = "rates" in result && result.rates ? listRates(result.rates) : []
  if (!result.ok) {
    return {
      ...shared,
      rates,
      available: false,
      unavailable_code: result.reason,
      unavailable_reason: shopperReason(option, result),
      unavailable_fields: result.reason === "input_incomplete" ? [...new Set(result.problems.map((p) => p.field))] : [],
    }
  }
  return {
    ...shared,
    ...rateText(result.rate),
    rates,
    available: true,
    unavailable_code: null,
    unavailable_reason: null,
    rate_code: result.rate.rateCode,
  }
}

function rateText(rate: ServiceRate): Pick<LastmileDeliveryRate, "name" | "description" | "window" | "co2_savings"> {
  return {
    name: rate.name ?? null,
    description: rate.description ?? null,
    window: rate.window ? { from: rate.window.from, to: rate.window.to } : null,
    co2_savings: typeof rate.co2Savings === "number" ? rate.co2Savings : null,
  }
}

export function listRates(rates: DeliveryRates): LastmileDeliveryRate[] {
  return [
    ...rates.offered.map(({ rate, price }) => ({
      rate_code: rate.rateCode,
      ...rateText(rate),
      amount: minorToMajor(price.amount, price.currency),
      available: true,
      unavailable_reason: null,
    })),
    ...rates.refused.map((refused) => ({
      rate_code: refused.rate.rateCode,
      ...rateText(refused.rate),
      amount: null,
      available: false,
      // A delivery rate's reason: rate_error, invalid_price or currency_mismatch.
      unavailable_reason: shopperReason({ kind: "delivery" }, refused),
    })),
  ]
}

/**
 * An option priced without a live quote: at the merchant's outage fallback,
 * or at the price the shopper chose it at, kept through a moment's outage
 * (with the rate's text stored at selection).
 */
export function describeStandIn(
  option: LastmileFulfillmentOption,
  standIn:
    | { kind: "fallback" }
    | {
        kind: "kept"
        rateCode: string | null
        name?: string | null
        description: string | null
        window: { from: string; to: string } | null
      }
): LastmileRateDetails {
  const shared = {
    ...NO_DETAILS,
    available: true,
    unavailable_code: null,
    unavailable_reason: null,
    delivery_type: option.delivery_type ?? null,
  }
  if (standIn.kind === "fallback") {
    return {
      ...shared,
      description: "Delivery price estimated: live prices are unavailable right now.",
      fallback: true,
    }
  }
  return {
    ...shared,
    rate_code: standIn.rateCode,
    name: standIn.name ?? null,
    description: standIn.description,
    window: standIn.window,
    kept: true,
  }
}

/**
 * A cart's method whose rate cannot be priced for the cart as it is now (decision 58): no amount, so Medusa's
 * refresh removes the method, and the rates route tells the shopper (`lost_choice`).
 */
export function describeLostChoice(
  option: LastmileFulfillmentOption,
  held: { rateCode?: string | null; name?: string | null },
  result: PricingResult
): LastmileRateDetails {
  const rates = "rates" in result && result.rates ? listRates(result.rates) : []
  return {
    ...NO_DETAILS,
    rates,
    available: false,
    delivery_type: option.delivery_type ?? null,
    unavailable_code: CHOSEN_RATE_LOST,
    unavailable_reason: `${held.name ?? held.rateCode ?? "The rate chosen"} cannot be priced for this cart as it is now. Please choose again.`,
  }
}

/** Why a cart's method went: its rate could not be priced for the cart's new state. */
export const CHOSEN_RATE_LOST = "chosen_rate_lost"

/** The answer to a `rate_code` the cart's quote does not offer: which rates it does offer, priced. */
export function rateNotOfferedMessage(rateCode: unknown, rates: LastmileDeliveryRate[], currency: string): string {
  const offered = rates
    .filter((r) => r.available && r.amount !== null)
    .map((r) => `${r.rate_code} (${r.name ?? r.rate_code}, ${formatMajor(r.amount as number, currency)})`)
  return offered.length
    ? `The delivery rate ${JSON.stringify(rateCode)} is not offered for this cart. Choose one of: ${offered.join(", ")}.`
    : `The delivery rate ${JSON.stringify(rateCode)} is not offered for this cart, and no other delivery rate is.`
}
