/** How a stock location is known at the service: its external id (decision 17). */
import type { MedusaAddressLike } from "../checkout/quote-request"
import type { StoreDescription } from "../checkout/rate-selection"
import type { ServiceFulfilmentLocation } from "../contracts/service-shapes"
import type { LastmileStoreView } from "../contracts/plugin-data"
import { readPickupSettings } from "../collection/pickup-settings"

export type StockLocationLike = {
  /** The stock location id. */
  id?: string
  name?: string | null
  address?: (MedusaAddressLike & { metadata?: Record<string, unknown> | null }) | null
}

/** The external id the merchant set on the location, or null when none is set. */
export function mappedExternalId(location: StockLocationLike | null | undefined): string | null {
  const value = location?.address?.metadata?.external_location_id
  return typeof value === "string" && value.trim() ? value.trim() : null
}

/** The location's id at the service: the external id set on it, else the stock location id. */
export function storeExternalId(location: StockLocationLike | null | undefined): string | undefined {
  return mappedExternalId(location) ?? location?.id ?? undefined
}

/**
 * The spellings each field of a service location's address comes in: the
 * spec does not show the address's structure, so its documented fields
 * (line1, city, postcode, country as a name) come first, then the usual ones.
 */
const SERVICE_ADDRESS_FIELDS = {
  line1: ["line1", "addressLine1", "address1", "address_1", "street", "line_1"],
  line2: ["line2", "addressLine2", "address2", "address_2", "line_2"],
  city: ["city", "town", "locality"],
  postcode: ["postcode", "postalCode", "postal_code", "zip", "zipCode"],
  province: ["province", "region", "county", "state"],
  country: ["country", "countryName", "country_name", "countryCode", "country_code"],
} as const

export type ServiceAddressField = keyof typeof SERVICE_ADDRESS_FIELDS

/** One field of a service location's address, trimmed, from the first spelling that holds text; undefined when none does. */
export function serviceAddressField(address: unknown, field: ServiceAddressField): string | undefined {
  const fields = address && typeof address === "object" ? (address as Record<string, unknown>) : {}
  for (const key of SERVICE_ADDRESS_FIELDS[field]) {
    const value = fields[key]
    if (typeof value === "string" && value.trim()) {
      return value.trim()
    }
  }
  return undefined
}

/** A store as the rate attribution needs it; the location's address shape is not shown, so read it leniently. */
export function toStoreDescription(location: ServiceFulfilmentLocation): StoreDescription | null {
  if (!location.externalLocationId) {
    return null
  }
  return {
    externalLocationId: location.externalLocationId,
    name: typeof location.name === "string" ? location.name : undefined,
    addressLine1: serviceAddressField(location.address, "line1"),
    postcode: serviceAddressField(location.address, "postcode"),
    operatingHours: location.operatingHours,
  }
}

/** The service's location list as the rate attribution needs it: the locations it can name, in its order. */
export function toStoreDescriptions(locations: ServiceFulfilmentLocation[]): StoreDescription[] {
  return locations.flatMap((location) => toStoreDescription(location) ?? [])
}

/** A store as the shopper is shown it (collection): its name, address and instructions, nothing internal. */
export function toStoreView(location: StockLocationLike | null | undefined): LastmileStoreView | null {
  if (!location) {
    return null
  }
  const a = location.address
  return {
    name: location.name ?? null,
    instructions: readPickupSettings(a?.metadata).instructions,
    address: a
      ? {
          address_1: a.address_1 ?? null,
          address_2: a.address_2 ?? null,
          city: a.city ?? null,
          postal_code: a.postal_code ?? null,
          country_code: a.country_code ?? null,
        }
      : null,
  }
}
