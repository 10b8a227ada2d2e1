/**
 * An order's lastmile delivery as the store API shows it. The booking's
 * tracking code and link are read from the fulfillment's `data` (the store
 * API's order carries its fulfillments' own fields, but not their labels,
 * which hold the same two values); the progress from its `shipped_at` and
 * `delivered_at`, which the plugin sets as the service reports; what was
 * chosen (the rate's name, the store, its readiness text, the window) from
 * the shipping method's data, else from the booking's. Both shapes are read:
 * the data written since 0.2 (`provider: "lastmile"`, `kind`, `store`) and
 * the older one (`optionId`, location ids).
 */
import { isLastmileProviderId } from "./delivery-step"
import { readStoreAddress } from "./store-address"
import type { LastmileDateLike, LastmileOrderLike, LastmileStoreAddress, LastmileWindow } from "./types"

/**
 * - `pending`: not booked yet: the plugin books seconds after the order is placed (or once the merchant
 *   fulfils it, with `booking_trigger: "fulfillment"`), and retries a failed booking.
 * - `booked`: booked with the service, not on its way yet.
 * - `shipped`: on its way (for a collection: on its way to the store, or ready there).
 * - `delivered`: delivered (for a collection: handed over).
 * - `canceled`: the lastmile fulfillment was canceled in Medusa, or its booking was cancelled at the service.
 */
export type LastmileTrackingStatus = "pending" | "booked" | "shipped" | "delivered" | "canceled"

/** A collection's store, as the confirmation shows it. */
export interface LastmileCollectionDetails {
  /** The store's name (orders placed before 0.2: the shipping option's name, "Collect from <store>"). */
  name: string | null
  /** The store's address, to show where to collect (orders placed before 0.2 carry none: see `readiness`). */
  address: LastmileStoreAddress | null
  /** When the order is ready there: the service's readiness text, kept from checkout. */
  readiness: string | null
  /**
   * What to bring to collect, only when the service said so (a
   * `collectionInstructions` or `bring` text in the method's or the
   * booking's data); never made up.
   */
  bring: string | null
  /** Orders placed before 0.2 only (the method no longer carries internal ids). */
  stockLocationId: string | null
  /** Orders placed before 0.2 only. */
  merchantLocationId: string | null
}

export interface LastmileOrderTracking {
  orderId: string
  kind: "delivery" | "collection"
  status: LastmileTrackingStatus
  /** The service's tracking code; null until booked. */
  trackingNumber: string | null
  /** The service's tracking page; null until booked, or when the service gave none (often, for a collection). */
  trackingUrl: string | null
  /** ISO 8601. */
  shippedAt: string | null
  deliveredAt: string | null
  /** The shipping option's name, e.g. "Next day delivery" or "Collect from Camden". */
  methodName: string | null
  /** The chosen rate's name, when the service named it. */
  rateName: string | null
  /**
   * What the shopper chose, named as they chose it: the rate's own name for a
   * delivery ("Next day eco", not the option's "Next day delivery"), the
   * store's for a collection.
   */
  choiceName: string | null
  /** The window offered at checkout. */
  window: LastmileWindow | null
  /** The rate's text at checkout: for a collection, the store's readiness (also `collection.readiness`). */
  description: string | null
  /** A collection's store; null for a delivery. */
  collection: LastmileCollectionDetails | null
}

/** The order's lastmile delivery, or null when no shipping method of the order is lastmile's. */
export function readOrderTracking(order: LastmileOrderLike): LastmileOrderTracking | null {
  const method = (order.shipping_methods ?? []).find((m) => lastmileKindOf(m.data) !== null)
  if (!method) {
    return null
  }
  const data = method.data ?? {}
  const kind = lastmileKindOf(data) ?? "delivery"
  const fulfillment = liveFulfillment(order.fulfillments ?? [])
  const booked = fulfillment?.data ?? {}
  const booking = readBooking(fulfillment?.data)
  const label = (fulfillment?.labels ?? []).find((l) => l.tracking_number)
  const rateName = text(data.rateName) ?? text(booked.rateName)
  const description = text(data.description)
  const collection = kind === "collection" ? collectionOf(data, booked, method.name ?? null, description) : null
  return {
    orderId: order.id,
    kind,
    status: statusOf(fulfillment, booking !== null || label !== undefined),
    trackingNumber: booking?.trackingId ?? label?.tracking_number ?? null,
    trackingUrl: booking?.trackingUrl ?? (label?.tracking_url || null),
    shippedAt: isoOf(fulfillment?.shipped_at),
    deliveredAt: isoOf(fulfillment?.delivered_at),
    methodName: method.name ?? null,
    rateName,
    choiceName: collection ? collection.name : (rateName ?? method.name ?? null),
    window: windowOf(data.window) ?? windowOf(booked.window),
    description,
    collection,
  }
}

type OrderFulfillment = NonNullable<LastmileOrderLike["fulfillments"]>[number]

/**
 * The fulfillment that speaks for the order's delivery: the latest lastmile
 * one that is not canceled (a canceled, never-booked one may precede the
 * booked one), else the latest. A return's fulfillment is not the order's.
 */
function liveFulfillment(fulfillments: OrderFulfillment[]): OrderFulfillment | undefined {
  const ours = fulfillments
    .filter((f) => isLastmileProviderId(f.provider_id) || f.data?.provider === "lastmile" || readBooking(f.data))
    .filter((f) => f.data?.kind !== "return")
    .sort((a, b) => timeOf(b.created_at) - timeOf(a.created_at))
  return ours.find((f) => !f.canceled_at && !f.data?.cancelled) ?? ours[0]
}

function collectionOf(
  data: Record<string, unknown>,
  booked: Record<string, unknown>,
  methodName: string | null,
  readiness: string | null
): LastmileCollectionDetails {
  const store = storeOf(data) ?? storeOf(booked)
  return {
    name: text(store?.name) ?? methodName,
    address: readStoreAddress(store?.address),
    readiness,
    bring: bringOf(data) ?? bringOf(booked),
    stockLocationId: text(data.stockLocationId),
    merchantLocationId: text(data.merchantLocationId),
  }
}

/** What to bring, in the service's words, if it gave any: its spec names no such field, so none is assumed. */
function bringOf(data: Record<string, unknown>): string | null {
  return text(data.collectionInstructions) ?? text(data.bring)
}

function statusOf(fulfillment: OrderFulfillment | undefined, booked: boolean): LastmileTrackingStatus {
  if (!fulfillment) {
    return "pending"
  }
  // `cancelled` marks a booking the service (or the merchant) cancelled before Medusa's fulfillment follows.
  if (fulfillment.canceled_at || fulfillment.data?.cancelled) {
    return "canceled"
  }
  if (fulfillment.delivered_at) {
    return "delivered"
  }
  if (fulfillment.shipped_at) {
    return "shipped"
  }
  // A fulfillment whose booking is under way (`status: "pending_booking"`) has no task yet.
  return booked ? "booked" : "pending"
}

function storeOf(data: Record<string, unknown>): { name?: unknown; address?: unknown } | null {
  const store = data.store
  return store && typeof store === "object" ? (store as { name?: unknown; address?: unknown }) : null
}

/**
 * A shipping method's data is lastmile's when it says so (`provider:
 * "lastmile"` with its `kind`), or, for orders placed before 0.2, when its
 * `optionId` names a lastmile delivery or collection option
 * (`lastmile-<type>`, `lastmile-collection`); returns are not shown.
 */
function lastmileKindOf(data: Record<string, unknown> | null | undefined): "delivery" | "collection" | null {
  if (data?.provider === "lastmile" && (data.kind === "delivery" || data.kind === "collection")) {
    return data.kind
  }
  const optionId = data?.optionId
  if (typeof optionId !== "string" || !optionId.startsWith("lastmile-") || optionId === "lastmile-return") {
    return null
  }
  return optionId === "lastmile-collection" ? "collection" : "delivery"
}

/** The booking in a fulfillment's data (the plugin's `fulfillmentDataSchema`): a task id, with its code and link. */
function readBooking(
  data: Record<string, unknown> | null | undefined
): { trackingId: string | null; trackingUrl: string | null } | null {
  const taskId = data?.taskId
  if (!data || !(typeof taskId === "number" || (typeof taskId === "string" && taskId))) {
    return null
  }
  return { trackingId: text(data.trackingId), trackingUrl: text(data.trackingUrl) }
}

function windowOf(value: unknown): LastmileWindow | null {
  if (!value || typeof value !== "object" || !("from" in value) || !("to" in value)) {
    return null
  }
  return typeof value.from === "string" && typeof value.to === "string" ? { from: value.from, to: value.to } : null
}

function text(value: unknown): string | null {
  return typeof value === "string" && value ? value : null
}

function isoOf(value: LastmileDateLike | null | undefined): string | null {
  if (!value) {
    return null
  }
  return value instanceof Date ? value.toISOString() : value
}

function timeOf(value: LastmileDateLike | null | undefined): number {
  const time = value ? new Date(value).getTime() : NaN
  return Number.isNaN(time) ? 0 : time
}
