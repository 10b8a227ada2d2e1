/**
 * One priced lastmile option as the storefront route answers it. The JSON's
 * types are the storefront package's (the client-facing contract, defined
 * once there), re-exported for the plugin's own importers.
 */
import type { LastmileOptionRate, LastmileRateDetails } from "medusa-plugin-lastmile-storefront"
import { optionKindOf } from "../contracts/fulfillment-options"

export type { LastmileOptionRate, LastmileRatesResponse } from "medusa-plugin-lastmile-storefront"

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
