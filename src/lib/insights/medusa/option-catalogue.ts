/**
 * The lastmile options as insights name them (decision 53): the store's, and those an order was placed with, each by
 * its name, fulfillment option and stock location, which is how the offer counters know it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { optionKindOf } from "../../contracts/fulfillment-options"
import { lastmileProviderId } from "../../options/medusa/provider-id"
import type { CatalogueOption } from "../report"
import type { OrderChoice } from "../insight-events"

interface OptionRow {
  id: string
  name?: string | null
  created_at?: string | Date | null
  data?: Record<string, unknown> | null
  service_zone?: { fulfillment_set?: { location?: { id: string; name?: string | null } | null } | null } | null
}

/** The lastmile delivery and collection options, oldest first; only those named when `ids` is given. */
export async function readOptionCatalogue(container: MedusaContainer, ids?: string[]): Promise<CatalogueOption[]> {
  const providerId = await lastmileProviderId(container)
  if (!providerId || (ids && !ids.length)) {
    return []
  }
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "shipping_option",
    fields: [
      "id",
      "name",
      "created_at",
      "data",
      "service_zone.fulfillment_set.location.id",
      "service_zone.fulfillment_set.location.name",
    ],
    filters: { provider_id: providerId, ...(ids ? { id: ids } : {}) },
  })
  return (data as OptionRow[])
    .filter((o) => {
      const kind = optionKindOf(o.data?.id)
      return kind === "delivery" || kind === "collection"
    })
    .sort((a, b) => String(a.created_at ?? "").localeCompare(String(b.created_at ?? "")) || a.id.localeCompare(b.id))
    .map((o) => {
      const location = o.service_zone?.fulfillment_set?.location ?? null
      return {
        id: o.id,
        name: o.name ?? o.id,
        fulfillment_option: String(o.data?.id),
        stock_location_id: location?.id ?? null,
        stock_location_name: location?.name ?? null,
      }
    })
}

/** The stores one may filter insights by: the locations of the lastmile options, by name. */
export function catalogueStores(options: CatalogueOption[]): { id: string; name: string }[] {
  const stores = new Map<string, string>()
  for (const option of options) {
    if (option.stock_location_id) {
      stores.set(option.stock_location_id, option.stock_location_name ?? option.stock_location_id)
    }
  }
  return [...stores.entries()].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name))
}

export interface PlacedOrder {
  id: string
  created_at: Date
  customer_id: string | null
}

/** The lastmile options an order was placed with, keyed as the offer counters key them. */
export async function readOrderChoices(
  container: MedusaContainer,
  orderId: string
): Promise<{ order: PlacedOrder; choices: OrderChoice[] } | null> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["id", "created_at", "customer_id", "shipping_methods.shipping_option_id"],
    filters: { id: orderId },
  })
  const row = data[0] as
    | {
        id: string
        created_at: string | Date
        customer_id?: string | null
        shipping_methods?: ({ shipping_option_id?: string | null } | null)[] | null
      }
    | undefined
  if (!row) {
    return null
  }
  const ids = [
    ...new Set((row.shipping_methods ?? []).flatMap((m) => (m?.shipping_option_id ? [m.shipping_option_id] : []))),
  ]
  const options = await readOptionCatalogue(container, ids)
  return {
    order: { id: row.id, created_at: new Date(row.created_at), customer_id: row.customer_id ?? null },
    choices: options.map((o) => ({
      shipping_option_id: o.id,
      name: o.name,
      fulfillment_option: o.fulfillment_option,
      stock_location_id: o.stock_location_id,
    })),
  }
}
