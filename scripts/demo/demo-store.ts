/**
 * The demo merchant (used by `npm run demo` and the admin tests; not part of the published plugin): a webshop
 * sales channel with a publishable key, a GBP region, one stock location per
 * service location (matched by external id), two products with the service's
 * stock per store, and the shipping options made by the one-click setup.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createInventoryLevelsWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/medusa/core-flows"
import type { SetupReport } from "../../src/lib/lastmile/admin-api"
import { defaultShippingProfile, setUpLastmileShipping } from "./shipping-setup"

export interface DemoLocation {
  externalLocationId: string | null
  name: string
  address: { line1: string; city: string; postcode: string }
  stock: Record<string, number>
}

export interface DemoStore {
  publishableKey: string
  regionId: string
  setup: SetupReport
}

export const DEMO_PRODUCTS = [
  { title: "Lastmile tee", sku: "DEMO-TEE", price: 20 },
  { title: "Lastmile mug", sku: "DEMO-MUG", price: 8 },
]

export async function seedDemoStore(container: MedusaContainer, locations: DemoLocation[]): Promise<DemoStore> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const existing = await container.resolve(Modules.API_KEY).listApiKeys({ title: "Webshop", type: "publishable" })
  if (existing.length) {
    // Seeded before (a persistent demo database): only the idempotent setup runs again.
    const [region] = await container.resolve(Modules.REGION).listRegions({ currency_code: "gbp" })
    return { publishableKey: existing[0].token, regionId: region.id, setup: await setUpLastmileShipping(container) }
  }
  const webshop = await createWebshop(container, "demo")
  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "United Kingdom", currency_code: "gbp", countries: ["gb"], payment_providers: ["pp_system_default"] },
      ],
    },
  })
  const profileId = await defaultShippingProfile(container)

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
          metadata: { external_location_id: l.externalLocationId },
        },
      })),
    },
  })
  for (const location of stock) {
    await linkSalesChannelsToStockLocationWorkflow(container).run({
      input: { id: location.id, add: [webshop.salesChannelId] },
    })
  }
  await createProducts(container, {
    profileId,
    salesChannelId: webshop.salesChannelId,
    products: DEMO_PRODUCTS.map((p) => ({ title: p.title, sku: p.sku, prices: { gbp: p.price } })),
  })
  const { data: items } = await query.graph({ entity: "inventory_item", fields: ["id", "sku"] })
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: (items as { id: string; sku: string }[]).flatMap((item) =>
        stock.map((location, i) => ({
          location_id: location.id,
          inventory_item_id: item.id,
          stocked_quantity: withId[i].stock[item.sku] ?? 0,
        }))
      ),
    },
  })
  return { publishableKey: webshop.publishableKey, regionId: region.id, setup: await setUpLastmileShipping(container) }
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
