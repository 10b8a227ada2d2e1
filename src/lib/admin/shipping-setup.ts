/**
 * One-click setup: what Medusa needs for lastmile shipping options, which the
 * stock dashboard cannot create (it has no calculated pickup option). For
 * every store matched to a service location: the provider linked to the
 * location, a pickup fulfillment set, a service zone for its country and a
 * calculated lastmile-collection option; on the dispatch location, the same
 * with a shipping set and one calculated delivery option per delivery type.
 * Everything that exists is left alone, so running it twice creates nothing.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createLocationFulfillmentSetWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
} from "@medusajs/medusa/core-flows"
import { lastmileClient } from "../connection/lastmile-connection"
import { storeExternalId } from "../lastmile/store"
import {
  LASTMILE_PROVIDER_ID,
  buildFulfillmentOptions,
  type LastmileFulfillmentOption,
} from "../lastmile/fulfillment-options"
import { type StockLocationRow, dispatchLocationOf, optionKind, readStockLocations } from "./lastmile-overview"

export interface SetupReport {
  created: string[]
  unchanged: string[]
  skipped: string[]
}

const STORE_RULES = (isReturn: boolean) => [
  { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
  { attribute: "is_return", value: isReturn ? "true" : "false", operator: "eq" as const },
]

export async function setUpLastmileShipping(container: MedusaContainer): Promise<SetupReport> {
  const report: SetupReport = { created: [], unchanged: [], skipped: [] }
  const connection = lastmileClient(container)
  if (!connection) {
    throw new Error("The lastmile provider is not configured in medusa-config")
  }
  const remote = await connection.client.listFulfilmentLocations()
  const stock = await readStockLocations(container)
  const options = buildFulfillmentOptions(connection.options.deliveryTypes)
  const profileId = await defaultShippingProfile(container, report)
  const byExternal = new Map(stock.map((s) => [storeExternalId(s), s]))

  const dispatch = dispatchLocationOf(remote, stock)?.location
  if (dispatch) {
    await ensureProviderLink(container, dispatch, report)
    const zoneId = await ensureZone(container, dispatch, "shipping", report)
    for (const option of options.filter((o) => o.kind === "delivery")) {
      await ensureOption(container, dispatch, zoneId, profileId, option, report)
    }
  } else {
    report.skipped.push(
      "delivery: no dispatch location (no delivery option, and no matched service location has delivery enabled)"
    )
  }

  for (const location of remote) {
    const store = location.externalLocationId ? byExternal.get(location.externalLocationId) : undefined
    if (!store) {
      report.skipped.push(`${location.name ?? location.fulfilmentLocationId}: no matching Medusa stock location`)
      continue
    }
    if (dispatch && store.id === dispatch.id && (location as { deliveryEnabled?: unknown }).deliveryEnabled) {
      continue
    }
    await ensureProviderLink(container, store, report)
    const zoneId = await ensureZone(container, store, "pickup", report)
    await ensureOption(
      container,
      store,
      zoneId,
      profileId,
      options.find((o) => o.kind === "collection")!,
      report
    )
  }
  return report
}

/** The store's default shipping profile (Medusa's migrations create one), created when missing. */
export async function defaultShippingProfile(
  container: MedusaContainer,
  report: SetupReport = { created: [], unchanged: [], skipped: [] }
): Promise<string> {
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const [profile] = await fulfillment.listShippingProfiles(
    { type: "default" },
    { take: 1, order: { created_at: "ASC" } }
  )
  if (profile) {
    return profile.id
  }
  const {
    result: [created],
  } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default", type: "default" }] } })
  report.created.push("shipping profile Default")
  return created.id
}

async function ensureProviderLink(container: MedusaContainer, location: StockLocationRow, report: SetupReport) {
  if ((location.fulfillment_providers ?? []).some((p) => p.id === LASTMILE_PROVIDER_ID)) {
    return
  }
  await container.resolve(ContainerRegistrationKeys.LINK).create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: LASTMILE_PROVIDER_ID },
  })
  location.fulfillment_providers = [...(location.fulfillment_providers ?? []), { id: LASTMILE_PROVIDER_ID }]
  report.created.push(`${location.name}: lastmile provider enabled`)
}

async function ensureZone(
  container: MedusaContainer,
  location: StockLocationRow,
  type: "pickup" | "shipping",
  report: SetupReport
): Promise<string> {
  let set = (location.fulfillment_sets ?? []).find((s) => s.type === type)
  if (!set) {
    const name = `${location.name} ${type === "pickup" ? "pickup" : "delivery"}`
    await createLocationFulfillmentSetWorkflow(container).run({
      input: { location_id: location.id, fulfillment_set_data: { name, type } },
    })
    const [fresh] = (await readStockLocations(container)).filter((l) => l.id === location.id)
    set = fresh.fulfillment_sets!.find((s) => s.type === type)!
    location.fulfillment_sets = fresh.fulfillment_sets
    report.created.push(`${location.name}: ${type} fulfillment set`)
  }
  const zone = set.service_zones?.[0]
  if (zone) {
    return zone.id
  }
  const country = location.address?.country_code ?? "gb"
  const {
    result: [created],
  } = await createServiceZonesWorkflow(container).run({
    input: {
      data: [
        {
          fulfillment_set_id: set.id,
          name: `${location.name} ${type} zone`,
          geo_zones: [{ type: "country" as const, country_code: country }],
        },
      ],
    },
  })
  set.service_zones = [{ id: created.id, shipping_options: [] }]
  report.created.push(`${location.name}: ${type} service zone (${country.toUpperCase()})`)
  return created.id
}

async function ensureOption(
  container: MedusaContainer,
  location: StockLocationRow,
  zoneId: string,
  profileId: string,
  option: LastmileFulfillmentOption,
  report: SetupReport
) {
  const existing = (location.fulfillment_sets ?? [])
    .flatMap((s) => s.service_zones ?? [])
    .flatMap((z) => z.shipping_options ?? [])
    .find((o) => optionKind(o) === option.kind && (o.data as { id?: string } | null)?.id === option.id)
  const label = `${location.name}: ${option.kind === "collection" ? "click & collect" : option.name} option`
  if (existing) {
    report.unchanged.push(label)
    return
  }
  const collection = option.kind === "collection"
  await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: collection
          ? `Collect from ${location.name}`
          : option.name.replace(/^Last-mile /, "").replace(/^./, (c) => c.toUpperCase()),
        price_type: "calculated",
        provider_id: LASTMILE_PROVIDER_ID,
        service_zone_id: zoneId,
        shipping_profile_id: profileId,
        type: collection
          ? { label: "Click & collect", description: "Collect from a store", code: option.id }
          : { label: option.name, description: "Delivered by courier", code: option.id },
        data: option,
        rules: STORE_RULES(false),
      },
    ],
  })
  report.created.push(label)
}
