/**
 * Many stores for the benchmark's store-scale series: more stores beside the seeded London ones, one sales channel per
 * scale; made through the modules in batches (the seed's workflows would take minutes for 150 stores).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { type SimLocation, alwaysOpenHours } from "../../packages/simulator/src"
import { createWebshop } from "../../scripts/catalog"
import { requireLastmileProviderId } from "../../src/lib/options/medusa/provider-id"
import type { SeededStore } from "./seed-store"

export interface StoreScale {
  stores: number
  publishableKey: string
  /** The simulator's locations for this scale: the warehouse and its stores. */
  locations: SimLocation[]
}

const COUNTRIES = ["gb", "jp", "kw"]

/** `count` stores more, named and addressed so each is told apart (as the service's list would be). */
export function moreStores(count: number, skus: string[]): SimLocation[] {
  return Array.from({ length: count }, (_, i): SimLocation => {
    const n = i + 1
    return {
      fulfilmentLocationId: `fl_${String(1000 + n)}`,
      externalLocationId: `store-more-${n}`,
      name: `Market ${n} store`,
      address: {
        line1: `${n} Market Row`,
        city: "London",
        postcode: `E${1 + (n % 20)} ${n % 10}AB`,
        country: "United Kingdom",
      },
      operatingHours: alwaysOpenHours(),
      collectionEnabled: true,
      stock: Object.fromEntries(skus.map((sku) => [sku, 10])),
    }
  })
}

/**
 * Adds the stores every scale needs beyond the seeded ones, and a sales
 * channel per scale above the seed's (whose channel is the first scale).
 */
export async function seedStoreScales(
  container: MedusaContainer,
  seed: SeededStore,
  seeded: SimLocation[],
  scales: number[]
): Promise<StoreScale[]> {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const lastmile = await requireLastmileProviderId(container)
  const [warehouse, ...stores] = seeded
  const skus = Object.keys(warehouse.stock)
  const extra = moreStores(Math.max(...scales) - stores.length, skus)

  const locations = await container.resolve(Modules.STOCK_LOCATION).createStockLocations(
    extra.map((store) => ({
      name: store.name,
      address: {
        address_1: store.address.line1,
        city: store.address.city,
        postal_code: store.address.postcode,
        country_code: "gb",
        metadata: { external_location_id: store.externalLocationId },
      },
    }))
  )
  const sets = await fulfillment.createFulfillmentSets(
    extra.map((store) => ({
      name: `${store.name} pickup`,
      type: "pickup",
      service_zones: [
        {
          name: `${store.name} pickup zone`,
          geo_zones: COUNTRIES.map((country_code) => ({ type: "country" as const, country_code })),
        },
      ],
    }))
  )
  await link.create(
    locations.flatMap((location, i) => [
      {
        [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
        [Modules.FULFILLMENT]: { fulfillment_set_id: sets[i].id },
      },
      {
        [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
        [Modules.FULFILLMENT]: { fulfillment_provider_id: lastmile },
      },
    ])
  )
  const {
    data: [nextDay],
  } = await query.graph({
    entity: "shipping_option",
    fields: ["shipping_profile_id"],
    filters: { id: seed.options.nextDay },
  })
  await fulfillment.createShippingOptions(
    sets.map((set, i) => ({
      name: `Collect from ${extra[i].name}`,
      price_type: "calculated" as const,
      provider_id: lastmile,
      service_zone_id: set.service_zones[0].id,
      shipping_profile_id: nextDay.shipping_profile_id as string,
      type: { label: "Click & collect", description: "Collect from a store", code: "lastmile-collection" },
      data: { id: "lastmile-collection", kind: "collection", rate_code: "SVC_COL" },
      // As the seed's options: in the store, not for returns.
      rules: [
        { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
        { attribute: "is_return", value: "false", operator: "eq" as const },
      ],
    }))
  )
  const { data: items } = await query.graph({ entity: "inventory_item", fields: ["id"] })
  await container
    .resolve(Modules.INVENTORY)
    .createInventoryLevels(
      locations.flatMap((location) =>
        items.map((item) => ({ location_id: location.id, inventory_item_id: item.id, stocked_quantity: 1000 }))
      )
    )

  const { data: products } = await query.graph({ entity: "product", fields: ["id"] })
  const seededIds = [seed.warehouseId, ...stores.map((s) => seed.storeLocations[s.externalLocationId!])]
  const scaled: StoreScale[] = []
  for (const count of scales) {
    const inScale = [...stores, ...extra].slice(0, count)
    if (count <= stores.length) {
      scaled.push({ stores: count, publishableKey: seed.publishableKey, locations: [warehouse, ...inScale] })
      continue
    }
    const channel = await createWebshop(container, `scale-${count}`)
    const stockLocations = [...seededIds, ...locations.slice(0, count - stores.length).map((l) => l.id)]
    await link.create([
      ...products.map((product) => ({
        [Modules.PRODUCT]: { product_id: product.id },
        [Modules.SALES_CHANNEL]: { sales_channel_id: channel.salesChannelId },
      })),
      ...stockLocations.map((id) => ({
        [Modules.SALES_CHANNEL]: { sales_channel_id: channel.salesChannelId },
        [Modules.STOCK_LOCATION]: { stock_location_id: id },
      })),
    ])
    scaled.push({ stores: count, publishableKey: channel.publishableKey, locations: [warehouse, ...inScale] })
  }
  return scaled
}
