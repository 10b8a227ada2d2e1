/**
 * Medusa's stock locations as the plugin reads them, and the rules that read them: which lastmile option a shipping
 * option is, the dispatch location, a service location's address as a stock location's.
 */
import type { ServiceFulfilmentLocation } from "../contracts/service-shapes"
import { type LastmileOptionKind, isLastmileProviderId, optionKindOf } from "../contracts/fulfillment-options"
import { isDispatchOption, pickDispatchLocation } from "./dispatch"
import { type ServiceAddressField, serviceAddressField, storeExternalId } from "./store-identity"
import { countryName } from "../address/country-names"

/** A shipping option in one of a stock location's service zones. */
export interface StockShippingOption {
  id: string
  provider_id: string
  data?: unknown
}

/**
 * A stock location as query reads it (`readStockLocations`): the graph's own
 * shape, where any list and any of its entries may be null, so Medusa's
 * generated query types assign to it unchanged.
 */
export interface StockLocationRow {
  id: string
  name: string
  address?: {
    id?: string | null
    address_1?: string | null
    address_2?: string | null
    city?: string | null
    postal_code?: string | null
    province?: string | null
    country_code?: string | null
    metadata?: Record<string, unknown> | null
  } | null
  /** The sales channels the location is linked to (carts of those channels can ship from it). */
  sales_channels?: ({ id: string; name: string } | null)[] | null
  fulfillment_sets?:
    | ({
        id: string
        type: string
        service_zones?: ({ id: string; shipping_options?: (StockShippingOption | null)[] | null } | null)[] | null
      } | null)[]
    | null
  fulfillment_providers?: ({ id: string } | null)[] | null
}

/** The entries of a list the graph may hold nulls in. */
export function present<T>(list: readonly (T | null | undefined)[] | null | undefined): T[] {
  return (list ?? []).filter((item): item is T => item !== null && item !== undefined)
}

/**
 * Stock locations by their id at the service (ARCHITECTURE.md, decision 17):
 * how a service location finds its stock location. Should two carry the same
 * id, the first is matched, everywhere (the unlink takes the first too).
 */
export function stockByExternalId(stock: StockLocationRow[]): Map<string, StockLocationRow> {
  const byExternal = new Map<string, StockLocationRow>()
  for (const location of stock) {
    const external = storeExternalId(location)
    if (external && !byExternal.has(external)) {
      byExternal.set(external, location)
    }
  }
  return byExternal
}

function optionKind(option: { provider_id: string; data?: unknown }): LastmileOptionKind | null {
  return isLastmileProviderId(option.provider_id)
    ? optionKindOf((option.data as { id?: unknown } | null | undefined)?.id)
    : null
}

/** Every shipping option in the location's fulfillment sets, with its set's type and its lastmile kind (null for another provider's). */
export function shippingOptionsOf(
  location: StockLocationRow
): { setType: string; kind: LastmileOptionKind | null; option: StockShippingOption }[] {
  return present(location.fulfillment_sets).flatMap((set) =>
    present(set.service_zones).flatMap((zone) =>
      present(zone.shipping_options).map((option) => ({ setType: set.type, kind: optionKind(option), option }))
    )
  )
}

export function hasOption(location: StockLocationRow, type: "pickup" | "shipping", kind: LastmileOptionKind): boolean {
  return shippingOptionsOf(location).some((o) => o.setType === type && o.kind === kind)
}

/** Whether the location has an option deliveries leave from (the same test as checkout's pricing hook). */
function hasDispatchOption(location: StockLocationRow): boolean {
  return shippingOptionsOf(location).some((o) => isDispatchOption(o.setType, o.kind))
}

/**
 * The Medusa location deliveries leave from. Checkout's pricing hook quotes
 * from the location of a lastmile delivery option (the lowest id when there
 * are several), so that comes first; only when there is none yet is it the
 * match of a delivery-enabled service location, which is where the setup
 * puts the option. Never a second dispatch location beside an existing one.
 */
export function dispatchLocationOf(
  remote: ServiceFulfilmentLocation[],
  stock: StockLocationRow[]
): { location: StockLocationRow; hasDeliveryOption: boolean } | null {
  const byExternal = stockByExternalId(stock)
  const deliveryEnabled = remote
    .filter((location) => location.deliveryEnabled === true)
    .flatMap((location) => (location.externalLocationId ? (byExternal.get(location.externalLocationId) ?? []) : []))
  return pickDispatchLocation(stock.filter(hasDispatchOption), deliveryEnabled)
}

/** A stock location's address as Medusa creates it (address_1 and country_code are required). */
export interface StockAddressInput {
  address_1: string
  address_2?: string | null
  city?: string | null
  postal_code?: string | null
  province?: string | null
  country_code: string
}

/** A service location's address read as a stock location's, or what it lacks for that. */
export type ServiceAddressReading = { address: StockAddressInput } | { missing: string[] }

const CODE_BY_NAME = new Map<string, string>()

/** The region code CLDR uses today for a code ("DD" → "DE", "UK" → "GB"). */
function canonicalRegion(code: string): string | undefined {
  try {
    return new Intl.Locale(`und-${code}`).region
  } catch {
    return undefined
  }
}

/** Country names (lower case) to ISO codes, from the same CLDR names the quotes send, so both directions agree. */
function codesByName(): Map<string, string> {
  if (!CODE_BY_NAME.size) {
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b)
        const name = countryName(code)?.toLowerCase()
        // Deprecated and reserved codes (DD, UK, SU…) share their successor's name: only the canonical code is kept.
        if (name && canonicalRegion(code) === code) {
          CODE_BY_NAME.set(name, code.toLowerCase())
        }
      }
    }
    // What merchants write for the one country CLDR names otherwise.
    CODE_BY_NAME.set("uk", "gb")
    CODE_BY_NAME.set("great britain", "gb")
  }
  return CODE_BY_NAME
}

/** "United Kingdom" (any case), "GB", "gb" or "UK" → "gb"; undefined when it names no country. */
export function countryCodeOf(text: string | null | undefined): string | undefined {
  const value = text?.trim().toLowerCase()
  if (!value) {
    return undefined
  }
  if (/^[a-z]{2}$/.test(value)) {
    const code = canonicalRegion(value.toUpperCase())
    return code && countryName(code) ? code.toLowerCase() : undefined
  }
  return codesByName().get(value)
}

/**
 * The service's location address as a stock location's, its fields read as
 * `serviceAddressField` reads them. Medusa needs a street line and a country;
 * anything less is reported as missing rather than guessed.
 */
export function stockAddressFromService(address: unknown): ServiceAddressReading {
  const text = (field: ServiceAddressField) => serviceAddressField(address, field)
  const line1 = text("line1")
  const country = text("country")
  const countryCode = countryCodeOf(country)
  const missing = [
    ...(line1 ? [] : ["a street line"]),
    ...(countryCode ? [] : [country ? `a country Medusa knows (got "${country}")` : "a country"]),
  ]
  if (!line1 || !countryCode) {
    return { missing }
  }
  return {
    address: {
      address_1: line1,
      address_2: text("line2") ?? null,
      city: text("city") ?? null,
      postal_code: text("postcode") ?? null,
      province: text("province") ?? null,
      country_code: countryCode,
    },
  }
}

/** How the merchant reads a service location: its name, else its ids. */
export function serviceLocationLabel(location: ServiceFulfilmentLocation): string {
  const name = typeof location.name === "string" && location.name.trim() ? location.name.trim() : null
  return name ?? location.externalLocationId ?? `location ${location.fulfilmentLocationId}`
}

/**
 * Why a service location cannot be linked to a stock location, or null. The
 * link is its externalLocationId (what a booking sends as merchantLocationId),
 * and the spec's update operation changes only collectionEnabled, so a
 * location without one can only be given one at the service.
 */
export function linkRefusal(location: ServiceFulfilmentLocation): string | null {
  return location.externalLocationId
    ? null
    : `The service gives ${serviceLocationLabel(location)} no externalLocationId, which is what links it to a Medusa stock location: set one at the service first.`
}

/** Why no stock location can be created from a service location, or null. */
export function createRefusal(location: ServiceFulfilmentLocation): string | null {
  const reading = stockAddressFromService(location.address)
  return (
    linkRefusal(location) ??
    ("missing" in reading
      ? `The service gives ${serviceLocationLabel(location)} no usable address (it lacks ${reading.missing.join(" and ")}): create the stock location in Settings → Locations and link it instead.`
      : null)
  )
}
