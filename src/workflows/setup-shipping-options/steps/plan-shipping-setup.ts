/**
 * Reads what exists (the service's locations, Medusa's stock locations with
 * their fulfillment sets, zones and options, the default shipping profile)
 * and decides everything the setup creates, with the report's words, before
 * anything is created. Nothing that exists is touched, so a second run plans
 * nothing.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { ServiceFulfilmentLocation } from "../../../lib/service-client"
import { lastmileClient } from "../../../lib/connection/lastmile-connection"
import { storeExternalId } from "../../../lib/lastmile/store"
import {
  LASTMILE_PROVIDER_ID,
  type LastmileFulfillmentOption,
  buildFulfillmentOptions,
} from "../../../lib/lastmile/fulfillment-options"
import {
  type StockLocationRow,
  dispatchLocationOf,
  optionKind,
  readStockLocations,
} from "../../../lib/admin/lastmile-overview"
import type { SetupReport } from "../../../lib/lastmile/admin-api"

type SetType = "pickup" | "shipping"

/** An existing fulfillment set, or one this run creates (its index in `fulfillment_sets`). */
export type FulfillmentSetRef = { id: string } | { new_set: number }
/** An existing service zone, or one this run creates (its index in `service_zones`). */
export type ServiceZoneRef = { id: string } | { new_zone: number }

export interface PlannedShippingOption {
  zone: ServiceZoneRef
  name: string
  type: { label: string; description: string; code: string }
  data: LastmileFulfillmentOption
}

export interface ShippingSetupPlan {
  report: SetupReport
  /** The default shipping profile, or null when the run creates it. */
  shipping_profile_id: string | null
  /** Stock locations the lastmile provider is enabled on. */
  provider_location_ids: string[]
  fulfillment_sets: { location_id: string; name: string; type: SetType }[]
  service_zones: { set: FulfillmentSetRef; name: string; country_code: string }[]
  shipping_options: PlannedShippingOption[]
}

export const planShippingSetupStepId = "lastmile-plan-shipping-setup"

export const planShippingSetupStep = createStep(planShippingSetupStepId, async (_input: void, { container }) => {
  const connection = lastmileClient(container)
  if (!connection) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The lastmile provider is not configured in medusa-config")
  }
  const remote = await connection.client.listFulfilmentLocations()
  const stock = await readStockLocations(container)
  const plan = planShippingSetup({
    remote,
    stock,
    options: buildFulfillmentOptions(connection.options.deliveryTypes),
    shippingProfileId: await defaultShippingProfileId(container),
  })
  return new StepResponse(plan)
})

/** The store's default shipping profile (Medusa's migrations create one), if any. */
export async function defaultShippingProfileId(container: MedusaContainer): Promise<string | null> {
  const [profile] = await container
    .resolve(Modules.FULFILLMENT)
    .listShippingProfiles({ type: "default" }, { take: 1, order: { created_at: "ASC" } })
  return profile?.id ?? null
}

/**
 * For every store matched to a service location: the provider enabled on the
 * location, a pickup fulfillment set, a service zone for its country and a
 * calculated click & collect option; on the dispatch location, the same with a
 * shipping set and one calculated delivery option per delivery type.
 */
export function planShippingSetup({
  remote,
  stock,
  options,
  shippingProfileId,
}: {
  remote: ServiceFulfilmentLocation[]
  stock: StockLocationRow[]
  options: LastmileFulfillmentOption[]
  shippingProfileId: string | null
}): ShippingSetupPlan {
  const report: SetupReport = { created: [], unchanged: [], skipped: [] }
  const plan: ShippingSetupPlan = {
    report,
    shipping_profile_id: shippingProfileId,
    provider_location_ids: [],
    fulfillment_sets: [],
    service_zones: [],
    shipping_options: [],
  }
  if (!shippingProfileId) {
    report.created.push("shipping profile Default")
  }
  // What this plan adds, so a location met twice is not given things twice.
  const plannedSets = new Map<string, { set: FulfillmentSetRef; zone?: ServiceZoneRef }>()
  const plannedOptions = new Map<string, Set<string>>()

  const enableProvider = (location: StockLocationRow) => {
    const enabled =
      (location.fulfillment_providers ?? []).some((p) => p.id === LASTMILE_PROVIDER_ID) ||
      plan.provider_location_ids.includes(location.id)
    if (!enabled) {
      plan.provider_location_ids.push(location.id)
      report.created.push(`${location.name}: lastmile provider enabled`)
    }
  }

  const zoneFor = (location: StockLocationRow, type: SetType): ServiceZoneRef => {
    const key = `${location.id}:${type}`
    let planned = plannedSets.get(key)
    if (!planned) {
      const existing = (location.fulfillment_sets ?? []).find((s) => s.type === type)
      const zone = existing?.service_zones?.[0]
      if (existing) {
        planned = { set: { id: existing.id }, zone: zone ? { id: zone.id } : undefined }
      } else {
        plan.fulfillment_sets.push({
          location_id: location.id,
          name: `${location.name} ${type === "pickup" ? "pickup" : "delivery"}`,
          type,
        })
        planned = { set: { new_set: plan.fulfillment_sets.length - 1 } }
        report.created.push(`${location.name}: ${type} fulfillment set`)
      }
      plannedSets.set(key, planned)
    }
    if (!planned.zone) {
      const country = location.address?.country_code ?? "gb"
      plan.service_zones.push({ set: planned.set, name: `${location.name} ${type} zone`, country_code: country })
      planned.zone = { new_zone: plan.service_zones.length - 1 }
      report.created.push(`${location.name}: ${type} service zone (${country.toUpperCase()})`)
    }
    return planned.zone
  }

  const addOption = (location: StockLocationRow, zone: ServiceZoneRef, option: LastmileFulfillmentOption) => {
    const label = `${location.name}: ${option.kind === "collection" ? "click & collect" : option.name} option`
    const planned = plannedOptions.get(location.id) ?? new Set<string>()
    const exists =
      planned.has(option.id) ||
      (location.fulfillment_sets ?? [])
        .flatMap((s) => s.service_zones ?? [])
        .flatMap((z) => z.shipping_options ?? [])
        .some((o) => optionKind(o) === option.kind && (o.data as { id?: string } | null)?.id === option.id)
    if (exists) {
      report.unchanged.push(label)
      return
    }
    const collection = option.kind === "collection"
    plan.shipping_options.push({
      zone,
      name: collection
        ? `Collect from ${location.name}`
        : option.name.replace(/^Last-mile /, "").replace(/^./, (c) => c.toUpperCase()),
      type: collection
        ? { label: "Click & collect", description: "Collect from a store", code: option.id }
        : { label: option.name, description: "Delivered by courier", code: option.id },
      data: option,
    })
    plannedOptions.set(location.id, planned.add(option.id))
    report.created.push(label)
  }

  const dispatch = dispatchLocationOf(remote, stock)?.location
  if (dispatch) {
    enableProvider(dispatch)
    const zone = zoneFor(dispatch, "shipping")
    for (const option of options.filter((o) => o.kind === "delivery")) {
      addOption(dispatch, zone, option)
    }
  } else {
    report.skipped.push(
      "delivery: no dispatch location (no delivery option, and no matched service location has delivery enabled)"
    )
  }

  const collection = options.find((o) => o.kind === "collection")
  const byExternal = new Map(stock.map((s) => [storeExternalId(s), s]))
  for (const location of remote) {
    const store = location.externalLocationId ? byExternal.get(location.externalLocationId) : undefined
    if (!store) {
      report.skipped.push(`${location.name ?? location.fulfilmentLocationId}: no matching Medusa stock location`)
      continue
    }
    if (dispatch && store.id === dispatch.id && location.deliveryEnabled) {
      continue
    }
    enableProvider(store)
    const zone = zoneFor(store, "pickup")
    if (collection) {
      addOption(store, zone, collection)
    }
  }
  return plan
}
