/**
 * A small merchant's store seeded through Medusa's workflows (a sales channel and key, a GBP region, a stock location
 * per service location, products with stock), shared by the demo and the tests. No shipping options.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createInventoryLevelsWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/medusa/core-flows"

export interface MerchantLocation {
  externalLocationId: string | null
  name: string
  address: { line1: string; city: string; postcode: string }
  stock: Record<string, number>
}

export interface MerchantStore {
  publishableKey: string
  salesChannelId: string
  regionId: string
  /** Stock location id by external id. */
  locations: Record<string, string>
}

export const SAMPLE_PRODUCTS = [
  { title: "Lastmile tee", sku: "DEMO-TEE", price: 20 },
  { title: "Lastmile mug", sku: "DEMO-MUG", price: 8 },
]

export async function seedMerchantStore(
  container: MedusaContainer,
  locations: MerchantLocation[],
  products = SAMPLE_PRODUCTS,
  {
    mapped = true,
  }: {
    /**
     * False seeds the store as a merchant has it before the plugin: its stock
     * locations named and stocked, with no external id and in no sales channel.
     */
    mapped?: boolean
  } = {}
): Promise<MerchantStore> {
  const store = await seedBareStore(container, products)
  const ids = await addMerchantLocations(container, store, locations, { mapped })
  return { ...store, locations: ids }
}

export interface BareStore {
  publishableKey: string
  salesChannelId: string
  regionId: string
}

/**
 * A store as a merchant has it just after installing the plugin: a "Webshop"
 * sales channel with a publishable key, a GBP region and the products, but no
 * stock location and no shipping option.
 */
export async function seedBareStore(container: MedusaContainer, products = SAMPLE_PRODUCTS): Promise<BareStore> {
  const webshop = await createWebshop(container, "seed")
  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "United Kingdom", currency_code: "gbp", countries: ["gb"], payment_providers: ["pp_system_default"] },
      ],
    },
  })
  await createProducts(container, {
    profileId: await defaultShippingProfile(container),
    salesChannelId: webshop.salesChannelId,
    products: products.map((p) => ({ title: p.title, sku: p.sku, prices: { gbp: p.price } })),
  })
  return { ...webshop, regionId: region.id }
}

/**
 * A stock location per location with an external id, stocked with its
 * `stock` (or `units` of everything); `mapped` (the default) sets the
 * external id on its address and adds it to the Webshop channel. Returns the
 * stock location id by external id.
 */
export async function addMerchantLocations(
  container: MedusaContainer,
  store: Pick<BareStore, "salesChannelId">,
  locations: MerchantLocation[],
  { mapped = true, units }: { mapped?: boolean; units?: number } = {}
): Promise<Record<string, string>> {
  const withId = locations.filter((l) => l.externalLocationId)
  const { result: stock } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: withId.map((l) => ({
        name: l.name,
        address: {
          address_1: l.address.line1,
          city: l.address.city,
          postal_code: l.address.postcode,
          country_code: "gb",
          metadata: mapped ? { external_location_id: l.externalLocationId } : undefined,
        },
      })),
    },
  })
  for (const location of mapped ? stock : []) {
    await linkSalesChannelsToStockLocationWorkflow(container).run({
      input: { id: location.id, add: [store.salesChannelId] },
    })
  }
  await stockAtLocations(
    container,
    stock.map((location) => location.id),
    (sku, i) => units ?? withId[i].stock[sku] ?? 0
  )
  return Object.fromEntries(stock.map((location, i) => [withId[i].externalLocationId!, location.id]))
}

/** Every product in stock at each location: `quantity(sku, i)` units at `locationIds[i]`. */
export async function stockAtLocations(
  container: MedusaContainer,
  locationIds: string[],
  quantity: (sku: string, index: number) => number
): Promise<void> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: items } = await query.graph({ entity: "inventory_item", fields: ["id", "sku"] })
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: (items as { id: string; sku: string }[]).flatMap((item) =>
        locationIds.map((location_id, i) => ({
          location_id,
          inventory_item_id: item.id,
          stocked_quantity: quantity(item.sku, i),
        }))
      ),
    },
  })
}

/** The store's default shipping profile, made when there is none. */
export async function defaultShippingProfile(container: MedusaContainer): Promise<string> {
  const [existing] = await container.resolve(Modules.FULFILLMENT).listShippingProfiles({ type: "default" })
  if (existing) {
    return existing.id
  }
  const {
    result: [created],
  } = await createShippingProfilesWorkflow(container).run({
    input: { data: [{ name: "Default", type: "default" }] },
  })
  return created.id
}

/** A "Webshop" sales channel with a publishable API key that reaches it. */
export async function createWebshop(
  container: MedusaContainer,
  createdBy: string
): Promise<{ salesChannelId: string; publishableKey: string }> {
  const {
    result: [channel],
  } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Webshop" }] } })
  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Webshop", type: "publishable", created_by: createdBy }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [channel.id] } })
  return { salesChannelId: channel.id, publishableKey: key.token }
}

/** Published one-size products with managed inventory, priced per currency in major units. */
export async function createProducts(
  container: MedusaContainer,
  {
    profileId,
    salesChannelId,
    products,
  }: {
    profileId: string
    salesChannelId: string
    products: { title: string; sku: string; prices: Record<string, number> }[]
  }
) {
  const { result } = await createProductsWorkflow(container).run({
    input: {
      products: products.map((p) => ({
        title: p.title,
        status: "published" as const,
        shipping_profile_id: profileId,
        sales_channels: [{ id: salesChannelId }],
        options: [{ title: "Size", values: ["One size"] }],
        variants: [
          {
            title: "One size",
            sku: p.sku,
            options: { Size: "One size" },
            manage_inventory: true,
            prices: Object.entries(p.prices).map(([currency_code, amount]) => ({ currency_code, amount })),
          },
        ],
      })),
    },
  })
  return result
}
