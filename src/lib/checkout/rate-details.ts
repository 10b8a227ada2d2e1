/**
 * What a storefront shows for one lastmile option besides its amount: the
 * rate's text and window, and, when the option cannot be offered, a reason in
 * words a shopper can act on. It travels in the provider's price result, so
 * Medusa's own `/calculate` answer carries it too (as `calculated_price.lastmile`).
 */
import type { ServiceRate } from "../contracts/service-shapes"
import type { QuoteInputField } from "./quote-request"
import type { PricingResult } from "./pricing-result"
import type { LastmileFulfillmentOption } from "../contracts/fulfillment-options"
import { formatMajor, minorToMajor } from "../money/money"
import type { DeliveryRates, RefusedRate } from "./rate-selection"

/** One delivery rate of an option's quote, as a storefront shows it beside the others. */
export interface LastmileDeliveryRate {
  /** Send as `data.rate_code` when adding the shipping method to choose this rate. */
  rate_code: string
  name: string | null
  description: string | null
  window: { from: string; to: string } | null
  co2_savings: number | null
  /** Major units of the cart's currency; null when the rate cannot be offered. */
  amount: number | null
  available: boolean
  /** Why the rate cannot be offered, in words. */
  unavailable_reason: string | null
}

export interface LastmileRateDetails {
  available: boolean
  /** Machine-readable cause when unavailable (`input_incomplete`, `rate_error`, `service_unavailable`, …). */
  unavailable_code: string | null
  /** The cause in words for the shopper. */
  unavailable_reason: string | null
  /**
   * For `input_incomplete`: which details are missing or unusable
   * (`shipping_address`, `shipping_address.name`, `shipping_address.phone`,
   * `email`, `items`; `store_address` is the merchant's to fix). Else empty.
   */
  unavailable_fields: QuoteInputField[]
  rate_code: string | null
  delivery_type: string | null
  name: string | null
  description: string | null
  window: { from: string; to: string } | null
  co2_savings: number | null
  eligibility: string | null
  /** The store's id at the service, for a collection option. */
  merchant_location_id: string | null
  /** True when the price is the merchant's outage fallback, not a live quote. */
  fallback: boolean
  /** True when the live quote failed for a moment and the price is the one the shopper chose it at. */
  kept: boolean
  /** A delivery option's rates, offerable ones first, best first; empty for collection. */
  rates: LastmileDeliveryRate[]
  /** When the quote this was read from was made (ISO 8601); null when no quote was read. Rates are good for `quote_cache_ttl_seconds` after it. */
  quoted_at: string | null
}

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
export function shopperReason(option: LastmileFulfillmentOption, result: PricingResult & { ok: false }): string {
  const collection = option.kind === "collection"
  switch (result.reason) {
    case "input_incomplete":
    case "rate_code_invalid":
      return result.detail
    case "service_unavailable":
      return "Live delivery prices are unavailable right now. Please try again in a moment."
    case "service_refused":
      return "This option is unavailable right now. Please choose another option."
    case "route_not_served":
      return "This service does not deliver to this address."
    case "rate_error":
      return result.detail
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
      unavailable_reason: refusedRateReason(refused),
    })),
  ]
}

/** Why one rate of a quote is not offered, in the shopper's words. */
export function refusedRateReason(refused: Pick<RefusedRate, "reason" | "detail">): string {
  switch (refused.reason) {
    case "rate_error":
      return refused.detail
    case "currency_mismatch":
      return "This option is not available in the cart's currency."
    default:
      return "This option could not be priced right now."
  }
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

/** The answer to a `rate_code` the cart's quote does not offer: which rates it does offer, priced. */
export function rateNotOfferedMessage(rateCode: unknown, rates: LastmileDeliveryRate[], currency: string): string {
  const offered = rates
    .filter((r) => r.available && r.amount !== null)
    .map((r) => `${r.rate_code} (${r.name ?? r.rate_code}, ${formatMajor(r.amount as number, currency)})`)
  return offered.length
    ? `The delivery rate ${JSON.stringify(rateCode)} is not offered for this cart. Choose one of: ${offered.join(", ")}.`
    : `The delivery rate ${JSON.stringify(rateCode)} is not offered for this cart, and no other delivery rate is.`
}
