/**
 * The one-click setup's plan (decision 28): everything it creates, with the report's words, from what exists; a second
 * run plans nothing.
 */
import type { ServiceFulfilmentLocation } from "../contracts/service-shapes"
import { type LastmileFulfillmentOption, isLastmileProviderId } from "../contracts/fulfillment-options"
import {
  type StockLocationRow,
  dispatchLocationOf,
  present,
  shippingOptionsOf,
  stockByExternalId,
} from "./stock-locations"
import type { SalesChannelRef, SetupReport } from "../contracts/admin-api"

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
  /** A flat price per currency (the return option); calculated by the provider when absent. */
  prices?: { currency_code: string; amount: number }[]
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
  /** Linked stock locations added to the sales channels the merchant ticked. */
  sales_channel_links: { location_id: string; sales_channel_id: string }[]
}

/**
 * For every store matched to a service location: the provider enabled on the
 * location, a pickup fulfillment set, a service zone for its country and a
 * calculated click & collect option; on the dispatch location, the same with a
 * shipping set and one calculated delivery option per delivery type. Then the
 * lastmile-return option (free in every region currency) in a shipping zone
 * of the chosen return location, else of the dispatch location, unless the
 * chosen location (or, with none chosen, any location) has one; and every
 * matched location in each ticked sales channel.
 */
export function planShippingSetup({
  remote,
  stock,
  options,
  shippingProfileId,
  returnLocationId = null,
  salesChannels = [],
  currencies = [],
}: {
  remote: ServiceFulfilmentLocation[]
  stock: StockLocationRow[]
  options: LastmileFulfillmentOption[]
  shippingProfileId: string | null
  /** A stock location the step found; the dispatch location when null. */
  returnLocationId?: string | null
  salesChannels?: SalesChannelRef[]
  currencies?: string[]
}): ShippingSetupPlan {
  const report: SetupReport = { created: [], unchanged: [], skipped: [] }
  const plan: ShippingSetupPlan = {
    report,
    shipping_profile_id: shippingProfileId,
    provider_location_ids: [],
    fulfillment_sets: [],
    service_zones: [],
    shipping_options: [],
    sales_channel_links: [],
  }
  if (!shippingProfileId) {
    report.created.push("shipping profile Default")
  }
  // What this plan adds, so a location met twice is not given things twice.
  const plannedSets = new Map<string, { set: FulfillmentSetRef; zone?: ServiceZoneRef }>()
  const plannedOptions = new Map<string, Set<string>>()

  const enableProvider = (location: StockLocationRow) => {
    const enabled =
      present(location.fulfillment_providers).some((p) => isLastmileProviderId(p.id)) ||
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
      const existing = present(location.fulfillment_sets).find((s) => s.type === type)
      const zone = present(existing?.service_zones)[0]
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
      shippingOptionsOf(location).some(
        (o) => o.kind === option.kind && (o.option.data as { id?: string } | null)?.id === option.id
      )
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
  const byExternal = stockByExternalId(stock)
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

  const returns = options.find((o) => o.kind === "return")
  if (returns) {
    const hasReturn = (location: StockLocationRow) => shippingOptionsOf(location).some((o) => o.kind === "return")
    const chosen = returnLocationId ? stock.find((s) => s.id === returnLocationId) : undefined
    // With no choice, any return option the store has will do: a second run must not add one on the dispatch location.
    const existing = chosen ? (hasReturn(chosen) ? chosen : undefined) : stock.find(hasReturn)
    const elsewhere = chosen && !existing ? stock.find(hasReturn) : undefined
    const target = chosen ?? dispatch
    if (existing) {
      report.unchanged.push(`${existing.name}: return option`)
    } else if (elsewhere && target) {
      // A second "Return by courier" would show the shopper two: moving returns is the merchant's deliberate act.
      report.skipped.push(
        `${target.name}: return option: returns already go to ${elsewhere.name}; delete that return option in Locations & Shipping to send them here`
      )
    } else if (!target) {
      report.skipped.push("return option: no dispatch location; choose the location returns go to")
    } else if (!currencies.length) {
      report.skipped.push(`${target.name}: return option: the store has no region, so no currency to price it in`)
    } else {
      enableProvider(target)
      plan.shipping_options.push({
        zone: zoneFor(target, "shipping"),
        name: "Return by courier",
        type: { label: "Return", description: "Collected from your address by courier", code: returns.id },
        data: returns,
        prices: currencies.map((currency_code) => ({ currency_code, amount: 0 })),
      })
      report.created.push(`${target.name}: return option`)
    }
  }

  // The matched locations, once each, in the service's order.
  const linked = [
    ...new Set(remote.flatMap((l) => (l.externalLocationId ? (byExternal.get(l.externalLocationId) ?? []) : []))),
  ]
  for (const location of linked) {
    for (const channel of salesChannels) {
      const label = `${location.name}: in sales channel ${channel.name}`
      if (present(location.sales_channels).some((c) => c.id === channel.id)) {
        report.unchanged.push(label)
      } else {
        plan.sales_channel_links.push({ location_id: location.id, sales_channel_id: channel.id })
        report.created.push(label)
      }
    }
  }
  return plan
}

/** The ticked sales channels as read, in the order ticked, and the ids that name none. */
export function tickedSalesChannels(
  ids: string[],
  found: SalesChannelRef[]
): { channels: SalesChannelRef[]; missing: string[] } {
  const unique = [...new Set(ids)]
  const byId = new Map(found.map(({ id, name }): [string, SalesChannelRef] => [id, { id, name }]))
  return {
    channels: unique.flatMap((id) => byId.get(id) ?? []),
    missing: unique.filter((id) => !byId.has(id)),
  }
}

/** Every currency a region of the store sells in, once each: the return option is free in each. */
export function regionCurrencies(regions: { currency_code: string }[]): string[] {
  return [...new Set(regions.map((region) => region.currency_code.toLowerCase()))].sort()
}
