/**
 * What Settings → Lastmile and the location widget show: the API key checked live (never shown), the webhook URL, the
 * service's locations matched to stock locations, their links and checks (decision 26).
 */
import type { ServiceFulfilmentLocation } from "../contracts/service-shapes"
import type { ResolvedProviderOptions } from "../options/provider-options"
import { errorMessage } from "../support/error-message"
import { mappedExternalId, storeExternalId } from "./store-identity"
import {
  type StockLocationRow,
  createRefusal,
  dispatchLocationOf,
  hasOption,
  linkRefusal,
  present,
  stockByExternalId,
} from "./stock-locations"
import type {
  Check,
  LastmileOverview,
  LocationView,
  StockLocationLastmileView,
  StockLocationSummary,
} from "../contracts/admin-api"

/** The state as far as it could be read: for a page that shows what it can. */
export interface SettledLocationState {
  /** Empty when the service was not read, or its read failed. */
  remote: ServiceFulfilmentLocation[]
  stock: StockLocationRow[]
  /** Null when the provider is not configured (the service is then not called). */
  options: ResolvedProviderOptions | null
  /** Why the service's locations could not be read; null when they were, or were not asked for. */
  error: Error | null
}

function stockSummaries(stock: StockLocationRow[], remote: ServiceFulfilmentLocation[]): StockLocationSummary[] {
  return stock.map((s) => {
    const external = storeExternalId(s)
    const linked = remote.find((l) => l.externalLocationId && l.externalLocationId === external)
    return {
      id: s.id,
      name: s.name,
      external_location_id: mappedExternalId(s),
      fulfilment_location_id: linked ? String(linked.fulfilmentLocationId) : null,
      sales_channels: present(s.sales_channels).map(({ id, name }) => ({ id, name })),
      has_address: !!s.address,
    }
  })
}

/** Whether the service answered, in the merchant's words. */
export function connectionStatus({ remote, options, error }: SettledLocationState): LastmileOverview["connection"] {
  if (!options) {
    return { ok: false, message: "The lastmile provider is not configured in medusa-config.", base_url: null }
  }
  return error
    ? { ok: false, message: `The service did not answer: ${errorMessage(error)}`, base_url: options.baseUrl }
    : { ok: true, message: `Connected: the service lists ${remote.length} location(s).`, base_url: options.baseUrl }
}

/** A service location as the page and the location widget show it, with the stock location it matches. */
export function locationView(l: ServiceFulfilmentLocation, byExternal: Map<string, StockLocationRow>): LocationView {
  const match = l.externalLocationId ? byExternal.get(l.externalLocationId) : undefined
  return {
    fulfilment_location_id: String(l.fulfilmentLocationId),
    external_location_id: l.externalLocationId ?? null,
    name: typeof l.name === "string" ? l.name : null,
    collection_enabled: l.collectionEnabled,
    delivery_enabled: (l as { deliveryEnabled?: unknown }).deliveryEnabled === true,
    address: l.address ?? null,
    stock_location: match
      ? {
          id: match.id,
          name: match.name,
          matched_by: mappedExternalId(match) ? "external_location_id" : "stock_location_id",
          sales_channels: present(match.sales_channels).map(({ id, name }) => ({ id, name })),
        }
      : null,
    has_collection_option: match ? hasOption(match, "pickup", "collection") : false,
    cannot_link: linkRefusal(l),
    cannot_create: createRefusal(l),
  }
}

export function lastmileOverview(state: SettledLocationState): LastmileOverview {
  const { remote, stock, options } = state
  const webhook = {
    path: options?.webhookSecret ? `/hooks/lastmile/${options.webhookSecret}` : null,
    configured: !!options?.webhookSecret,
    signed: !!options?.webhookSigningSecret,
  }
  const status = connectionStatus(state)
  if (!options) {
    return {
      connection: status,
      webhook,
      locations: [],
      unmatched_stock_locations: [],
      dispatch_location: null,
      checks: [{ id: "connection", ok: false, message: "Register the lastmile provider in the fulfillment module." }],
      stock_locations: stockSummaries(stock, []),
    }
  }

  const byExternal = stockByExternalId(stock)
  const locations = remote.map((l) => locationView(l, byExternal))
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
        ? `No Medusa stock location matches ${unmatched.map((l) => l.name ?? l.external_location_id ?? l.fulfilment_location_id).join(", ")}: link each to a stock location below, or create one from it.`
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
    stock_locations: stockSummaries(stock, remote),
  }
}

/** One stock location's view (the location widget): the service location linked to it, and whether it dispatches. */
export function stockLocationLastmileView(
  state: SettledLocationState,
  stockLocationId: string
): StockLocationLastmileView {
  const status = connectionStatus(state)
  if (!state.options) {
    return { connected: false, message: status.message, location: null, is_dispatch: false }
  }
  const byExternal = stockByExternalId(state.stock)
  const linked = state.remote.find(
    (l) => !!l.externalLocationId && byExternal.get(l.externalLocationId)?.id === stockLocationId
  )
  return {
    connected: status.ok,
    message: status.ok ? null : status.message,
    location: linked ? locationView(linked, byExternal) : null,
    is_dispatch: dispatchLocationOf(state.remote, state.stock)?.location.id === stockLocationId,
  }
}
