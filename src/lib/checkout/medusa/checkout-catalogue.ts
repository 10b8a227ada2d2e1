/**
 * What checkout needs of the store that does not change from cart to cart
 * (ARCHITECTURE.md, decision 45): the lastmile shipping options with their
 * data, shipping profile and stock location (name and address), the dispatch
 * address, and per sales channel the fulfillment sets of its stock locations.
 * Read at most once a minute, and again at once after a change that touches
 * it (Medusa's fulfillment and stock location events, the plugin's setup,
 * mapping and collection switch): `clear` starts a new version, and
 * every answer kept for an older version is left unused.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { type LastmileOptionKind, optionKindOf } from "../../contracts/fulfillment-options"
import { lastmileProviderId } from "../../options/medusa/provider-id"
import { isDispatchOption, pickDispatchLocation } from "../../store/dispatch"
import type { StockLocationLike } from "../../store/store-identity"
import type { MedusaAddressLike } from "../quote-request"
import { ExpiringValue } from "../../support/expiring-value"

/** A lastmile shipping option as checkout prices and shows it. */
export interface CatalogueOption {
  id: string
  name: string
  price_type: string
  provider_id: string
  shipping_profile_id: string | null
  data: Record<string, unknown>
  /** The fulfillment option it is (`data.id`: `lastmile-next-day`, `lastmile-collection`). */
  option_id: string
  kind: LastmileOptionKind
  fulfillment_set_id: string | null
  /** Its stock location, as Medusa hands it to the provider (`from_location`). */
  location: (StockLocationLike & { id: string }) | null
}

export interface CheckoutCatalogue {
  /** Changes with every read: an answer keyed by it is never served after a change. */
  version: number
  providerId: string | null
  dispatch: MedusaAddressLike | null
  /** By shipping option id. */
  options: Map<string, CatalogueOption>
  /** The fulfillment sets of a sales channel's stock locations (Medusa's first rule for a cart's options). */
  fulfillmentSets(salesChannelId: string): Promise<string[]>
}

interface OptionRow {
  id: string
  name: string
  price_type: string
  provider_id: string
  shipping_profile_id?: string | null
  data?: Record<string, unknown> | null
  service_zone?: {
    fulfillment_set_id?: string | null
    fulfillment_set?: {
      type?: string | null
      location?: { id: string; name?: string | null; address?: MedusaAddressLike | null } | null
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
  "service_zone.fulfillment_set_id",
  "service_zone.fulfillment_set.type",
  "service_zone.fulfillment_set.location.id",
  "service_zone.fulfillment_set.location.name",
  "service_zone.fulfillment_set.location.address.*",
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
        fulfillment_set_id: row.service_zone?.fulfillment_set_id ?? null,
        location: location ? { id: location.id, name: location.name ?? null, address: location.address ?? null } : null,
      })
    }
  }
  const channels = new Map<string, Promise<string[]>>()
  return {
    version: ++versions,
    providerId,
    dispatch: dispatchAddress(rows),
    options,
    fulfillmentSets(salesChannelId) {
      let sets = channels.get(salesChannelId)
      if (!sets) {
        sets = query
          .graph({
            entity: "sales_channel",
            fields: ["stock_locations.fulfillment_sets.id"],
            filters: { id: salesChannelId },
          })
          .then(({ data: [channel] }) =>
            ((channel?.stock_locations ?? []) as { fulfillment_sets?: { id: string }[] | null }[]).flatMap((l) =>
              (l.fulfillment_sets ?? []).map((set) => set.id)
            )
          )
        sets.catch(() => channels.delete(salesChannelId))
        channels.set(salesChannelId, sets)
      }
      return sets
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

/** The address fields a quote sends, nothing else (no ids, no metadata). */
function addressOnly(address: MedusaAddressLike): MedusaAddressLike {
  return {
    address_1: address.address_1 ?? null,
    address_2: address.address_2 ?? null,
    city: address.city ?? null,
    postal_code: address.postal_code ?? null,
    country_code: address.country_code ?? null,
  }
}
