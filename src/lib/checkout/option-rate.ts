/** One priced lastmile option as the storefront route answers it. */
import { optionKindOf } from "../contracts/fulfillment-options"
import type { LastmileDeliveryRate, LastmileRateDetails } from "./rate-details"

export interface PricedShippingOption {
  id: string
  name: string
  provider_id: string
  amount?: number | null
  is_tax_inclusive?: boolean
  data?: Record<string, unknown> | null
  calculated_price?: { lastmile?: LastmileRateDetails } | null
  stock_location?: {
    id: string
    name?: string | null
    address?: Record<string, unknown> | null
  } | null
}

export interface LastmileOptionRate {
  shipping_option_id: string
  name: string
  type: "delivery" | "collection"
  /** The rate that prices the option (the chosen one when kept); null when none does. */
  rate_name: string | null
  amount: number | null
  currency_code: string
  is_tax_inclusive: boolean
  description: string | null
  window: { from: string; to: string } | null
  co2_savings: number | null
  stock_location_id: string | null
  stock_location: { id: string; name: string | null; address: Record<string, unknown> | null } | null
  merchant_location_id: string | null
  available: boolean
  unavailable_reason: string | null
  unavailable_code: string | null
  /** For `input_incomplete`: the details to fix (see LastmileRateDetails.unavailable_fields). */
  unavailable_fields: string[]
  eligibility: string | null
  fallback: boolean
  /**
   * True when the live quote failed for a moment and this is the price the
   * cart's method keeps (the amount the cart is charged), not an estimate.
   */
  kept: boolean
  /**
   * A delivery option's rates, each choosable with `data: { rate_code }`:
   * offerable ones first, best by the option's rule first (the one `amount`
   * prices); rates the service cannot offer follow with their reason.
   */
  rates: LastmileDeliveryRate[]
  /** When the option's quote was made (ISO 8601); null when it was priced without one. */
  quoted_at: string | null
}

/** What `GET /store/lastmile/rates?cart_id=…` answers (here, beside its items, so storefronts read it without Medusa's server types). */
export interface LastmileRatesResponse {
  cart_id: string
  currency_code: string
  /** `PARTIAL` when any of the cart's quotes is partial, else `FULL`; null when no quote was made. */
  eligibility: string | null
  /** Delivery options first, then the stores' collection options, each by name. */
  rates: LastmileOptionRate[]
}

export function toOptionRate(option: PricedShippingOption, currencyCode: string): LastmileOptionRate {
  const details = option.calculated_price?.lastmile
  const priced = typeof option.amount === "number"
  const available = priced && (details?.available ?? true)
  const location = option.stock_location
  return {
    shipping_option_id: option.id,
    name: option.name,
    type: optionKindOf(option.data?.id) === "collection" ? "collection" : "delivery",
    rate_name: available ? (details?.name ?? null) : null,
    amount: priced ? (option.amount as number) : null,
    currency_code: currencyCode,
    is_tax_inclusive: !!option.is_tax_inclusive,
    description: details?.description ?? null,
    window: details?.window ?? null,
    co2_savings: details?.co2_savings ?? null,
    stock_location_id: location?.id ?? null,
    stock_location: location
      ? { id: location.id, name: location.name ?? null, address: location.address ?? null }
      : null,
    merchant_location_id: details?.merchant_location_id ?? null,
    available,
    unavailable_reason: available
      ? null
      : (details?.unavailable_reason ?? "This option could not be priced right now."),
    unavailable_code: available ? null : (details?.unavailable_code ?? "unpriced"),
    unavailable_fields: available ? [] : (details?.unavailable_fields ?? []),
    eligibility: details?.eligibility ?? null,
    fallback: details?.fallback ?? false,
    kept: details?.kept ?? false,
    rates: details?.rates ?? [],
    quoted_at: details?.quoted_at ?? null,
  }
}
