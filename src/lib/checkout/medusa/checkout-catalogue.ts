/**
 * What checkout needs of the store that does not change from cart to cart (decision 40): read at most once a minute,
 * and again at once after a change that touches it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { LRUCache } from "lru-cache"
import { type LastmileOptionKind, optionKindOf } from "../../contracts/fulfillment-options"
import { lastmileProviderId } from "../../options/medusa/provider-id"
import { isDispatchOption, pickDispatchLocation } from "../../store/dispatch"
import type { StockLocationLike } from "../../store/store-identity"
import type { MedusaAddressLike } from "../quote-request"
import { ExpiringValue } from "../../support/expiring-value"
import { type StorePosition, readStorePosition } from "../../collection/pickup-settings"

/** A lastmile shipping option as checkout prices and shows it. */
export interface CatalogueOption extends Pick<OptionRow, "id" | "name" | "price_type" | "provider_id"> {
  shipping_profile_id: string | null
  data: Record<string, unknown>
  /** The fulfillment option it is (`data.id`: `lastmile-next-day`, `lastmile-collection`). */
  option_id: string
  kind: LastmileOptionKind
  /** Its stock location, as Medusa hands it to the provider (`from_location`). */
  location: (StockLocationLike & { id: string }) | null
  /** Where its stock location is (`metadata.latitude` / `longitude`), for a store's distance; null when not known. */
  position: StorePosition | null
}

export interface CheckoutCatalogue {
  /** Changes with every read: an answer keyed by it is never served after a change. */
  version: number
  providerId: string | null
  dispatch: MedusaAddressLike | null
  /** By shipping option id. */
  options: Map<string, CatalogueOption>
  /** The lastmile options Medusa's own listing offers a cart of this channel at this address (decision 40). */
  listed(salesChannelId: string, address: ListingAddress | null | undefined): Promise<string[]>
  /** The shipping profile of each product (Medusa prices an option with the lines of its profile). */
  shippingProfiles(productIds: string[]): Promise<ReadonlyMap<string, string | null>>
}

/** The address fields Medusa's listing matches service zones with. */
export interface ListingAddress {
  country_code?: string | null
  province?: string | null
  city?: string | null
  postal_code?: string | null
}

interface OptionRow {
  id: string
  name: string
  price_type: string
  provider_id: string
  shipping_profile_id?: string | null
  data?: Record<string, unknown> | null
  service_zone?: {
    geo_zones?: { type?: string | null }[] | null
    fulfillment_set?: {
      type?: string | null
      location?: {
        id: string
        name?: string | null
        address?: MedusaAddressLike | null
        metadata?: Record<string, unknown> | null
      } | null
    } | null
  } | null
}

const OPTION_FIELDS = [
  "id",
  "name",
  "price_type",
  "provider_id",
  "shipping_profile_id",
  "data",
  "service_zone.geo_zones.type",
  "service_zone.fulfillment_set.type",
  "service_zone.fulfillment_set.location.id",
  "service_zone.fulfillment_set.location.name",
  "service_zone.fulfillment_set.location.address.*",
  // The store's position (nearest first), which Medusa keeps in the location's own metadata.
  "service_zone.fulfillment_set.location.metadata",
]

let versions = 0

/** The catalogue held for the app's life (by the plugin's module): read when asked, at most once per its TTL. */
export class CheckoutCatalogueCache extends ExpiringValue<CheckoutCatalogue> {
  read(container: MedusaContainer): Promise<CheckoutCatalogue> {
    return this.get(() => readCatalogue(container))
  }
}

async function readCatalogue(container: MedusaContainer): Promise<CheckoutCatalogue> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const providerId = await lastmileProviderId(container)
  const { data } = providerId
    ? await query.graph({ entity: "shipping_option", fields: OPTION_FIELDS, filters: { provider_id: providerId } })
    : { data: [] }
  const rows = data as OptionRow[]
  const options = new Map<string, CatalogueOption>()
  for (const row of rows) {
    const kind = optionKindOf(row.data?.id)
    if (kind) {
      const location = row.service_zone?.fulfillment_set?.location
      options.set(row.id, {
        id: row.id,
        name: row.name,
        price_type: row.price_type,
        provider_id: row.provider_id,
        shipping_profile_id: row.shipping_profile_id ?? null,
        data: row.data ?? {},
        option_id: row.data?.id as string,
        kind,
        location: location ? { id: location.id, name: location.name ?? null, address: location.address ?? null } : null,
        position: readStorePosition(location?.metadata),
      })
    }
  }
  // A zone finer than a country makes the listing depend on more of the address: only then is it part of the key.
  const zones = new Set(rows.flatMap((row) => (row.service_zone?.geo_zones ?? []).map((zone) => zone.type)))
  const finer = (...types: string[]) => types.some((type) => zones.has(type))
  const listings = new LRUCache<string, Promise<string[]>>({ max: 1000 })
  const profiles = new Map<string, string | null>()
  const list = async (salesChannelId: string, address: ListingAddress | null | undefined): Promise<string[]> => {
    const { data: channels } = await query.graph({
      entity: "sales_channel",
      fields: ["stock_locations.fulfillment_sets.id"],
      filters: { id: salesChannelId },
    })
    const sets = ((channels[0]?.stock_locations ?? []) as { fulfillment_sets?: { id: string }[] | null }[]).flatMap(
      (location) => (location.fulfillment_sets ?? []).map((set) => set.id)
    )
    if (!sets.length || !options.size) {
      return []
    }
    // Medusa's own listing for a cart: the module method its workflow's query reaches, with the same filters and context.
    const listed = await container.resolve(Modules.FULFILLMENT).listShippingOptionsForContext(
      {
        id: [...options.keys()],
        fulfillment_set_id: sets,
        address: {
          country_code: address?.country_code ?? undefined,
          province_code: address?.province ?? undefined,
          city: address?.city ?? undefined,
          postal_expression: address?.postal_code ?? undefined,
        },
        context: { is_return: "false", enabled_in_store: "true" },
      },
      { select: ["id"] }
    )
    return listed.map((option) => option.id)
  }
  return {
    version: ++versions,
    providerId,
    dispatch: dispatchAddress(rows),
    options,
    listed(salesChannelId, address) {
      const key = JSON.stringify([
        salesChannelId,
        address?.country_code ?? "",
        finer("province", "city", "zip") ? (address?.province ?? "") : "*",
        finer("city", "zip") ? (address?.city ?? "") : "*",
        finer("zip") ? (address?.postal_code ?? "") : "*",
      ])
      let listing = listings.get(key)
      if (!listing) {
        // Concurrent carts of one channel and area share the read; a failed one is not kept.
        listing = list(salesChannelId, address)
        listing.catch(() => listings.delete(key))
        listings.set(key, listing)
      }
      return listing
    },
    async shippingProfiles(productIds) {
      const missing = productIds.filter((id) => !profiles.has(id))
      if (missing.length) {
        const { data: products } = await query.graph({
          entity: "product",
          fields: ["id", "shipping_profile.id"],
          filters: { id: missing },
        })
        for (const id of missing) {
          const product = products.find((p) => p.id === id)
          profiles.set(id, product?.shipping_profile?.id ?? null)
        }
      }
      return profiles
    },
  }
}

/** The address of the dispatch location: the location of a lastmile delivery option. */
function dispatchAddress(options: OptionRow[]): MedusaAddressLike | null {
  const locations = options
    .filter((o) => isDispatchOption(o.service_zone?.fulfillment_set?.type, optionKindOf(o.data?.id)))
    .map((o) => o.service_zone?.fulfillment_set?.location)
    .filter((l): l is { id: string; address?: MedusaAddressLike | null } => !!l?.address)
  const address = pickDispatchLocation(locations)?.location.address
  return address ? addressOnly(address) : null
}

const QUOTED_ADDRESS_FIELDS = ["address_1", "address_2", "city", "postal_code", "country_code"] as const

/** The address fields a quote sends, nothing else (no ids, no metadata). */
function addressOnly(address: MedusaAddressLike): MedusaAddressLike {
  return Object.fromEntries(QUOTED_ADDRESS_FIELDS.map((field) => [field, address[field] ?? null]))
}
