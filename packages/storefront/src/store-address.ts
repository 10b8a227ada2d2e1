/**
 * A store's address, from a stock location or the store kept on a method or fulfillment, on one line for the shopper.
 */
import type { LastmileStoreAddress } from "./types.js"

/** The address's fields that hold text; null when there is no address object at all. */
export function readStoreAddress(value: unknown): LastmileStoreAddress | null {
  if (!value || typeof value !== "object") {
    return null
  }
  const fields = value as Record<string, unknown>
  const read = (key: keyof LastmileStoreAddress) => {
    const field = fields[key]
    return typeof field === "string" && field.trim() ? field.trim() : null
  }
  return {
    address_1: read("address_1"),
    address_2: read("address_2"),
    city: read("city"),
    postal_code: read("postal_code"),
    country_code: read("country_code"),
  }
}

/**
 * "12 Camden High St, London, NW1 0JH": the lines a shopper needs to find the
 * store (the country is left out: a store is local). Null when none is known.
 */
export function formatStoreAddress(address: LastmileStoreAddress | null | undefined): string | null {
  const parts = [address?.address_1, address?.address_2, address?.city, address?.postal_code].filter(
    (part): part is string => Boolean(part)
  )
  return parts.length ? parts.join(", ") : null
}

/**
 * The address, unless `text` already names it (the service's readiness text
 * often starts with the store's street): a sentence is said once.
 */
export function storeAddressUnlessIn(
  address: LastmileStoreAddress | null | undefined,
  text: string | null | undefined
): string | null {
  const street = address?.address_1
  if (street && text?.toLocaleLowerCase().includes(street.toLocaleLowerCase())) {
    return null
  }
  return formatStoreAddress(address)
}
