/**
 * A store as a merchant sets it up for lastmile: a sales channel and key, GBP, JPY and KWD regions, a warehouse with
 * next-day lastmile and a flat manual option, stores with a lastmile click-and-collect option each, two products.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createLocationFulfillmentSetWorkflow,
  createRegionsWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
} from "@medusajs/medusa/core-flows"
import { type MerchantLocation, addMerchantLocations, createProducts, createWebshop } from "../../scripts/catalog"
import { requireLastmileProviderId } from "../../src/lib/options/medusa/provider-id"

/** A location of the store, as the simulator lists it: mapped to the service by its external id. */
export type SeedLocation = Omit<MerchantLocation, "stock">

export interface SeededStore {
  publishableKey: string
  salesChannelId: string
  regions: Record<"gbp" | "jpy" | "kwd", string>
  warehouseId: string
  /** Stock location id by external id. */
  storeLocations: Record<string, string>
  options: {
    nextDay: string
    manual: string
    /** The lastmile-return option (flat price) on the warehouse. */
    returns: string
    /** Collection shipping option id by the store's external id. */
    collection: Record<string, string>
  }
  variants: { tee: string; mug: string }
}

export const TEE_SKU = "DEMO-TEE"
export const MUG_SKU = "DEMO-MUG"

const COUNTRIES = ["gb", "jp", "kw"]
const ENABLED_IN_STORE = [
  { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
  { attribute: "is_return", value: "false", operator: "eq" as const },
]

export async function seedStore(
  container: MedusaContainer,
  { warehouse, stores }: { warehouse: SeedLocation; stores: SeedLocation[] }
): Promise<SeededStore> {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  // Whatever id the app registered the provider under.
  const lastmile = await requireLastmileProviderId(container)

  const webshop = await createWebshop(container, "seed")

  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "United Kingdom", currency_code: "gbp", countries: ["gb"], payment_providers: ["pp_system_default"] },
        { name: "Japan", currency_code: "jpy", countries: ["jp"], payment_providers: ["pp_system_default"] },
        { name: "Kuwait", currency_code: "kwd", countries: ["kw"], payment_providers: ["pp_system_default"] },
      ],
    },
  })
  const regionId = (currency: string) => regions.find((r) => r.currency_code === currency)!.id

  const {
    result: [profile],
  } = await createShippingProfilesWorkflow(container).run({
    input: { data: [{ name: "Parcels", type: "default" }] },
  })

  // The products first: the locations are stocked with them as they are made.
  const products = await createProducts(container, {
    profileId: profile.id,
    salesChannelId: webshop.salesChannelId,
    products: [
      { title: "Demo tee", sku: TEE_SKU, prices: { gbp: 20, jpy: 3000, kwd: 6 } },
      { title: "Demo mug", sku: MUG_SKU, prices: { gbp: 8, jpy: 1200, kwd: 2.5 } },
    ],
  })
  const all = [warehouse, ...stores]
  const ids = await addMerchantLocations(
    container,
    webshop,
    all.map((l) => ({ ...l, stock: {} })),
    { units: 1000 }
  )
  const locationId = (location: SeedLocation) => ids[location.externalLocationId!]
  const locations = all.map(locationId)

  await link.create(
    locations.flatMap((id) => [
      {
        [Modules.STOCK_LOCATION]: { stock_location_id: id },
        [Modules.FULFILLMENT]: { fulfillment_provider_id: lastmile },
      },
      {
        [Modules.STOCK_LOCATION]: { stock_location_id: id },
        [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
      },
    ])
  )

  const serviceZoneFor = async (locationId: string, type: "shipping" | "pickup", name: string) => {
    const { result: fulfillmentSet } = await createLocationFulfillmentSetWorkflow(container).run({
      input: { location_id: locationId, fulfillment_set_data: { name, type } },
    })
    const { data } = await query.graph({
      entity: "stock_location",
      fields: ["fulfillment_sets.id", "fulfillment_sets.type"],
      filters: { id: locationId },
    })
    const setId =
      (fulfillmentSet as { id?: string } | undefined)?.id ??
      (data[0].fulfillment_sets as { id: string; type: string }[]).find((s) => s.type === type)!.id
    const {
      result: [zone],
    } = await createServiceZonesWorkflow(container).run({
      input: {
        data: [
          {
            fulfillment_set_id: setId,
            name: `${name} zone`,
            geo_zones: COUNTRIES.map((country_code) => ({ type: "country" as const, country_code })),
          },
        ],
      },
    })
    return zone.id
  }

  const warehouseZone = await serviceZoneFor(locationId(warehouse), "shipping", `${warehouse.name} delivery`)
  const storeZones: Record<string, string> = {}
  for (const store of stores) {
    storeZones[store.externalLocationId!] = await serviceZoneFor(locationId(store), "pickup", `${store.name} pickup`)
  }

  const { result: options } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Next day delivery",
        price_type: "calculated",
        provider_id: lastmile,
        service_zone_id: warehouseZone,
        shipping_profile_id: profile.id,
        type: { label: "Next day", description: "Delivered tomorrow", code: "lastmile-next-day" },
        data: { id: "lastmile-next-day", kind: "delivery", delivery_type: "NEXT_DAY" },
        rules: ENABLED_IN_STORE,
      },
      {
        name: "Standard post",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: warehouseZone,
        shipping_profile_id: profile.id,
        type: { label: "Standard", description: "2-4 days", code: "standard" },
        data: { id: "manual-fulfillment" },
        prices: [
          { currency_code: "gbp", amount: 3.5 },
          { currency_code: "jpy", amount: 600 },
          { currency_code: "kwd", amount: 1.5 },
        ],
        rules: ENABLED_IN_STORE,
      },
      {
        name: "Return by courier",
        price_type: "flat",
        provider_id: lastmile,
        service_zone_id: warehouseZone,
        shipping_profile_id: profile.id,
        type: { label: "Return", description: "Collected from your address", code: "lastmile-return" },
        data: { id: "lastmile-return", kind: "return", is_return: true },
        prices: [
          { currency_code: "gbp", amount: 0 },
          { currency_code: "jpy", amount: 0 },
          { currency_code: "kwd", amount: 0 },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
          { attribute: "is_return", value: "true", operator: "eq" as const },
        ],
      },
      ...stores.map((store) => ({
        name: `Collect from ${store.name}`,
        price_type: "calculated" as const,
        provider_id: lastmile,
        service_zone_id: storeZones[store.externalLocationId!],
        shipping_profile_id: profile.id,
        type: { label: "Click & collect", description: "Collect from a store", code: "lastmile-collection" },
        data: { id: "lastmile-collection", kind: "collection", rate_code: "SVC_COL" },
        rules: ENABLED_IN_STORE,
      })),
    ],
  })

  const variantId = (sku: string) =>
    products.flatMap((p) => p.variants ?? []).find((v: { sku?: string | null }) => v.sku === sku)!.id
  const optionId = (serviceZoneId: string, providerId: string, kind?: string) =>
    options.find(
      (o) =>
        o.service_zone_id === serviceZoneId &&
        o.provider_id === providerId &&
        ((o.data as { kind?: string } | null)?.kind === "return") === (kind === "return")
    )!.id

  return {
    publishableKey: webshop.publishableKey,
    salesChannelId: webshop.salesChannelId,
    regions: { gbp: regionId("gbp"), jpy: regionId("jpy"), kwd: regionId("kwd") },
    warehouseId: locationId(warehouse),
    storeLocations: Object.fromEntries(stores.map((s) => [s.externalLocationId!, locationId(s)])),
    options: {
      nextDay: optionId(warehouseZone, lastmile),
      manual: optionId(warehouseZone, "manual_manual"),
      returns: optionId(warehouseZone, lastmile, "return"),
      collection: Object.fromEntries(
        stores.map((s) => [s.externalLocationId!, optionId(storeZones[s.externalLocationId!], lastmile)])
      ),
    },
    variants: { tee: variantId(TEE_SKU), mug: variantId(MUG_SKU) },
  }
}

/** Seeds the store with the simulator's locations: its first is the warehouse, the rest are stores. */
export function seedFromSimulatorLocations(
  container: MedusaContainer,
  locations: SeedLocation[]
): Promise<SeededStore> {
  const [warehouse, ...stores] = locations
  return seedStore(container, { warehouse, stores })
}
