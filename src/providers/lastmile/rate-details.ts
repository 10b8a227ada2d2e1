/**
 * What a storefront shows for one lastmile option besides its amount: the
 * rate's text and window, and, when the option cannot be offered, a reason in
 * words a shopper can act on. It travels in the provider's price result, so
 * Medusa's own `/calculate` answer carries it too (as `calculated_price.lastmile`).
 */
import type { ServiceFulfilmentLocation } from "../../lib/service-client"
import type { PricingResult } from "./checkout-pricing"
import type { LastmileFulfillmentOption } from "./fulfillment-options"
import type { StoreDescription } from "./rate-selection"

export interface LastmileRateDetails {
  available: boolean
  /** Machine-readable cause when unavailable (`input_incomplete`, `rate_error`, `service_unavailable`, …). */
  unavailable_code: string | null
  /** The cause in words for the shopper. */
  unavailable_reason: string | null
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
}

const NO_DETAILS: Omit<LastmileRateDetails, "available" | "unavailable_code" | "unavailable_reason"> = {
  rate_code: null,
  delivery_type: null,
  name: null,
  description: null,
  window: null,
  co2_savings: null,
  eligibility: null,
  merchant_location_id: null,
  fallback: false,
}

/** The shopper-facing sentence for an option that cannot be offered. */
export function shopperReason(option: LastmileFulfillmentOption, result: PricingResult & { ok: false }): string {
  const collection = option.kind === "collection"
  switch (result.reason) {
    case "input_incomplete":
      return result.detail
    case "service_unavailable":
      return "Live delivery prices are unavailable right now. Please try again in a moment."
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
  }
  if (!result.ok) {
    return {
      ...shared,
      available: false,
      unavailable_code: result.reason,
      unavailable_reason: shopperReason(option, result),
    }
  }
  const rate = result.rate
  return {
    ...shared,
    available: true,
    unavailable_code: null,
    unavailable_reason: null,
    rate_code: rate.rateCode,
    delivery_type: typeof rate.deliveryType === "string" ? rate.deliveryType : shared.delivery_type,
    name: rate.name ?? null,
    description: rate.description ?? null,
    window: rate.window ? { from: rate.window.from, to: rate.window.to } : null,
    co2_savings: typeof rate.co2Savings === "number" ? rate.co2Savings : null,
  }
}

/** The outage fallback: delivery offered at the merchant's fixed amount. */
export function describeFallback(option: LastmileFulfillmentOption): LastmileRateDetails {
  return {
    ...NO_DETAILS,
    available: true,
    unavailable_code: null,
    unavailable_reason: null,
    delivery_type: option.delivery_type ?? null,
    description: "Delivery price estimated: live prices are unavailable right now.",
    fallback: true,
  }
}

/** A store as the rate attribution needs it; the location's address shape is not shown, so read it leniently. */
export function toStoreDescription(location: ServiceFulfilmentLocation): StoreDescription | null {
  if (!location.externalLocationId) {
    return null
  }
  const address = (location.address && typeof location.address === "object" ? location.address : {}) as Record<
    string,
    unknown
  >
  const text = (...keys: string[]) => {
    for (const key of keys) {
      if (typeof address[key] === "string" && address[key]) {
        return address[key] as string
      }
    }
    return undefined
  }
  return {
    externalLocationId: location.externalLocationId,
    name: typeof location.name === "string" ? location.name : undefined,
    addressLine1: text("line1", "address1", "address_1", "street"),
    postcode: text("postcode", "postalCode", "postal_code", "zip"),
  }
}
