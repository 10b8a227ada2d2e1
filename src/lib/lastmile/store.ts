/**
 * How a Medusa stock location is known at the service (ARCHITECTURE.md,
 * decision 17): `address.metadata.external_location_id` when the merchant set
 * it, else the stock location's own id. It is what the service calls the
 * location's `externalLocationId` and what bookings send as
 * `collection.merchantLocationId`.
 */
import type { MedusaAddressLike } from "./quote-request"
import type { StoreDescription } from "./rate-selection"
import type { ServiceFulfilmentLocation } from "./service-shapes"

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
