/**
 * What the Settings → Lastmile page shows: whether the API key works (a live
 * call), the webhook URL, the service's fulfilment locations matched to Medusa
 * stock locations by external id, and the troubleshooting checks of the
 * service's troubleshooting rules for collection where they apply. Never the
 * API key.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { ServiceFulfilmentLocation } from "../service-client"
import { lastmileClient } from "../connection/lastmile-connection"
import { errorMessage } from "../lastmile/error-message"
import { LASTMILE_PROVIDER_ID, type LastmileOptionKind, optionKindOf } from "../lastmile/fulfillment-options"
import { isDispatchOption, pickDispatchLocation } from "../lastmile/dispatch"
import { mappedExternalId, storeExternalId } from "../lastmile/store"
import type { Check, LastmileOverview, LocationView } from "../lastmile/admin-api"

export interface StockLocationRow {
  id: string
  name: string
  address?: { metadata?: Record<string, unknown> | null; country_code?: string | null } | null
  fulfillment_sets?: {
    id: string
    type: string
    service_zones?: { id: string; shipping_options?: { id: string; provider_id: string; data?: unknown }[] }[]
  }[]
  fulfillment_providers?: { id: string }[]
}

export function optionKind(option: { provider_id: string; data?: unknown }): LastmileOptionKind | null {
  return option.provider_id === LASTMILE_PROVIDER_ID
    ? optionKindOf((option.data as { id?: unknown } | null | undefined)?.id)
    : null
}

function hasOption(location: StockLocationRow, type: "pickup" | "shipping", kind: LastmileOptionKind): boolean {
  return (location.fulfillment_sets ?? [])
    .filter((set) => set.type === type)
    .some((set) =>
      (set.service_zones ?? []).some((zone) => (zone.shipping_options ?? []).some((o) => optionKind(o) === kind))
    )
}

/** Whether the location has an option deliveries leave from (the same test as checkout's pricing hook). */
function hasDispatchOption(location: StockLocationRow): boolean {
  return (location.fulfillment_sets ?? []).some((set) =>
    (set.service_zones ?? []).some((zone) =>
      (zone.shipping_options ?? []).some((o) => isDispatchOption(set.type, optionKind(o)))
    )
  )
}

export async function readStockLocations(container: MedusaContainer): Promise<StockLocationRow[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "stock_location",
    fields: [
      "id",
      "name",
      "address.*",
      "fulfillment_providers.id",
      "fulfillment_sets.id",
      "fulfillment_sets.type",
      "fulfillment_sets.service_zones.id",
      "fulfillment_sets.service_zones.shipping_options.id",
      "fulfillment_sets.service_zones.shipping_options.provider_id",
      "fulfillment_sets.service_zones.shipping_options.data",
    ],
  })
  return data as StockLocationRow[]
}

/**
 * The Medusa location deliveries leave from. Checkout's pricing hook quotes
 * from the location of a lastmile delivery option (the lowest id when there
 * are several), so that comes first; only when there is none yet is it the
 * match of a delivery-enabled service location, which is where the setup
 * puts the option. Never a second dispatch location beside an existing one.
 */
export function dispatchLocationOf(
  remote: ServiceFulfilmentLocation[],
  stock: StockLocationRow[]
): { location: StockLocationRow; hasDeliveryOption: boolean } | null {
  const byExternal = new Map(stock.map((s) => [storeExternalId(s), s]))
  const deliveryEnabled = remote
    .filter((location) => location.deliveryEnabled === true && location.externalLocationId)
    .flatMap((location) => byExternal.get(location.externalLocationId) ?? [])
  return pickDispatchLocation(stock.filter(hasDispatchOption), deliveryEnabled)
}

export async function lastmileOverview(container: MedusaContainer): Promise<LastmileOverview> {
  const connection = lastmileClient(container)
  const stock = await readStockLocations(container)
  const webhook = {
    path: connection?.options.webhookSecret ? `/hooks/lastmile/${connection.options.webhookSecret}` : null,
    configured: !!connection?.options.webhookSecret,
    signed: !!connection?.options.webhookSigningSecret,
  }
  if (!connection) {
    return {
      connection: { ok: false, message: "The lastmile provider is not configured in medusa-config.", base_url: null },
      webhook,
      locations: [],
      unmatched_stock_locations: [],
      dispatch_location: null,
      checks: [{ id: "connection", ok: false, message: "Register the lastmile provider in the fulfillment module." }],
    }
  }
  let remote: ServiceFulfilmentLocation[] = []
  let status: LastmileOverview["connection"]
  try {
    remote = await connection.client.listFulfilmentLocations()
    status = {
      ok: true,
      message: `Connected: the service lists ${remote.length} location(s).`,
      base_url: connection.options.baseUrl,
    }
  } catch (error) {
    status = {
      ok: false,
      message: `The service did not answer: ${errorMessage(error)}`,
      base_url: connection.options.baseUrl,
    }
  }

  const byExternal = new Map(stock.map((s) => [storeExternalId(s), s]))
  const locations: LocationView[] = remote.map((l) => {
    const match = l.externalLocationId ? byExternal.get(l.externalLocationId) : undefined
    return {
      fulfilment_location_id: String(l.fulfilmentLocationId),
      external_location_id: l.externalLocationId ?? null,
      name: typeof l.name === "string" ? l.name : null,
      collection_enabled: l.collectionEnabled,
      delivery_enabled: (l as { deliveryEnabled?: unknown }).deliveryEnabled === true,
      address: l.address ?? null,
      stock_location: match ? { id: match.id, name: match.name } : null,
      has_collection_option: match ? hasOption(match, "pickup", "collection") : false,
    }
  })
  const remoteExternal = new Set<string | null | undefined>(remote.map((l) => l.externalLocationId).filter(Boolean))
  const unmatchedStock = stock.flatMap((s) => {
    const mapped = mappedExternalId(s)
    return mapped && !remoteExternal.has(mapped) ? [{ id: s.id, name: s.name, external_location_id: mapped }] : []
  })
  const dispatch = dispatchLocationOf(remote, stock)

  const checks: Check[] = [{ id: "connection", ok: status.ok, message: status.message }]
  if (status.ok) {
    const enabled = locations.filter((l) => l.collection_enabled)
    checks.push({
      id: "no_collection_enabled",
      ok: enabled.length > 0,
      message: enabled.length
        ? `${enabled.length} location(s) have collection enabled.`
        : "No location has collection enabled at the service: click and collect cannot be offered.",
    })
    const unmatched = locations.filter((l) => !l.stock_location)
    checks.push({
      id: "unmatched_location",
      ok: unmatched.length === 0,
      message: unmatched.length
        ? `No Medusa stock location matches ${unmatched.map((l) => l.name ?? l.external_location_id ?? l.fulfilment_location_id).join(", ")}: set its address metadata external_location_id to the service's externalLocationId.`
        : "Every service location has a matching Medusa stock location.",
    })
    const offeredNotEnabled = locations.filter((l) => l.has_collection_option && !l.collection_enabled)
    const optionWithoutService = stock.filter(
      (s) => hasOption(s, "pickup", "collection") && !locations.some((l) => l.stock_location?.id === s.id)
    )
    const notEnabled = [
      ...offeredNotEnabled.map((l) => l.stock_location!.name),
      ...optionWithoutService.map((s) => s.name),
    ]
    checks.push({
      id: "store_not_enabled",
      ok: notEnabled.length === 0,
      message: notEnabled.length
        ? `${notEnabled.join(", ")} offer(s) click and collect in Medusa, but collection is not enabled there at the service.`
        : "Every store with a click-and-collect option has collection enabled at the service.",
    })
  }
  checks.push({
    id: "no_dispatch_location",
    ok: !!dispatch?.hasDeliveryOption,
    message: !dispatch
      ? "No dispatch location for delivery: no location has a lastmile delivery option and no matched service location has delivery enabled."
      : dispatch.hasDeliveryOption
        ? `Deliveries are dispatched from ${dispatch.location.name}.`
        : `${dispatch.location.name} dispatches at the service but has no lastmile delivery option yet: use Set up shipping options.`,
  })

  return {
    connection: status,
    webhook,
    locations,
    unmatched_stock_locations: unmatchedStock,
    dispatch_location: dispatch ? { id: dispatch.location.id, name: dispatch.location.name } : null,
    checks,
  }
}
