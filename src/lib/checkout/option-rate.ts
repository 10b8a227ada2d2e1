/** One priced lastmile option as the rates route answers it, in the storefront package's types (decision 34). */
import type { LastmileOptionRate, LastmileRateDetails } from "medusa-plugin-lastmile-storefront"
import { readPickupSettings } from "../collection/pickup-settings"

export type { LastmileOptionRate, LastmileRatesResponse } from "medusa-plugin-lastmile-storefront"

/** The option as the rates route shows it: its name and kind, and where it is collected from or leaves from. */
export interface ShownOption {
  id: string
  name: string
  kind: "delivery" | "collection" | "return"
  location: { id: string; name?: string | null; address?: Record<string, unknown> | null } | null
}

/** What the provider answered Medusa for the option (`calculatePrice`), its details for storefronts included. */
export interface OptionPrice {
  calculated_amount?: number | null
  is_calculated_price_tax_inclusive?: boolean
  lastmile?: LastmileRateDetails
}

/** The provider's details of a rate, with the option's own fields: the one reshaping on the way to the shopper. */
export function toOptionRate(option: ShownOption, price: OptionPrice, currencyCode: string): LastmileOptionRate {
  const details = price.lastmile
  const priced = typeof price.calculated_amount === "number"
  const available = priced && (details?.available ?? true)
  const location = option.location
  return {
    shipping_option_id: option.id,
    name: option.name,
    type: option.kind === "collection" ? "collection" : "delivery",
    rate_name: available ? (details?.name ?? null) : null,
    amount: priced ? (price.calculated_amount as number) : null,
    currency_code: currencyCode,
    is_tax_inclusive: !!price.is_calculated_price_tax_inclusive,
    description: details?.description ?? null,
    window: details?.window ?? null,
    co2_savings: details?.co2_savings ?? null,
    stock_location_id: location?.id ?? null,
    stock_location: location
      ? { id: location.id, name: location.name ?? null, address: location.address ?? null }
      : null,
    merchant_location_id: details?.merchant_location_id ?? null,
    instructions: option.kind === "collection" ? readPickupSettings(location?.address?.metadata).instructions : null,
    distance_km: null,
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
