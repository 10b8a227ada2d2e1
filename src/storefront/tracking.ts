/**
 * An order's lastmile delivery as the store API shows it. The booking's
 * tracking code and link are read from the fulfillment's `data` (the store
 * API's order carries its fulfillments' own fields, but not their labels,
 * which hold the same two values); the progress from its `shipped_at` and
 * `delivered_at`, which the plugin sets as the service reports; what was
 * chosen (the store, its readiness text, the window) from the shipping
 * method's data.
 */
import { LASTMILE_PROVIDER_ID } from "./delivery-step"
import type { LastmileDateLike, LastmileOrderLike, LastmileWindow } from "./types"

/**
 * - `pending`: not booked yet: the plugin books seconds after the order is placed (or once the merchant
 *   fulfils it, with `booking_trigger: "fulfillment"`), and retries a failed booking.
 * - `booked`: booked with the service, not on its way yet.
 * - `shipped`: on its way (for a collection: on its way to the store, or ready there).
 * - `delivered`: delivered (for a collection: handed over).
 * - `canceled`: the lastmile fulfillment was canceled in Medusa.
 */
export type LastmileTrackingStatus = "pending" | "booked" | "shipped" | "delivered" | "canceled"

export interface LastmileOrderTracking {
  orderId: string
  kind: "delivery" | "collection"
  status: LastmileTrackingStatus
  /** The service's tracking code; null until booked. */
  trackingNumber: string | null
  /** The service's tracking page; null until booked, or when the service gave none. */
  trackingUrl: string | null
  /** ISO 8601. */
  shippedAt: string | null
  deliveredAt: string | null
  /** The shipping option's name, e.g. "Next day delivery" or "Collect from Camden". */
  methodName: string | null
  /** The chosen rate's name, when the service named it. */
  rateName: string | null
  /** The window offered at checkout. */
  window: LastmileWindow | null
  /** The rate's text at checkout: for a collection, the store's address and readiness. */
  description: string | null
  /** A collection's store; null for a delivery. */
  collection: {
    /** The shipping option's name (the setup names it "Collect from <store>"): the store API does not expose the location. */
    name: string | null
    stockLocationId: string | null
    /** The store's id at the service. */
    merchantLocationId: string | null
  } | null
}

/** The order's lastmile delivery, or null when no shipping method of the order is lastmile's. */
export function readOrderTracking(order: LastmileOrderLike): LastmileOrderTracking | null {
  const method = (order.shipping_methods ?? []).find((m) => lastmileKindOf(m.data) !== null)
  if (!method) {
    return null
  }
  const data = method.data ?? {}
  const kind = lastmileKindOf(data) ?? "delivery"
  const fulfillments = (order.fulfillments ?? [])
    .filter((f) => f.provider_id === LASTMILE_PROVIDER_ID || readBooking(f.data) !== null)
    .sort((a, b) => timeOf(b.created_at) - timeOf(a.created_at))
  // A canceled, never-booked fulfillment may precede the booked one: the live one speaks for the order.
  const fulfillment = fulfillments.find((f) => !f.canceled_at) ?? fulfillments[0]
  const booking = readBooking(fulfillment?.data)
  const label = (fulfillment?.labels ?? []).find((l) => l.tracking_number)
  return {
    orderId: order.id,
    kind,
    status: statusOf(fulfillment),
    trackingNumber: booking?.trackingId ?? label?.tracking_number ?? null,
    trackingUrl: booking?.trackingUrl ?? (label?.tracking_url || null),
    shippedAt: isoOf(fulfillment?.shipped_at),
    deliveredAt: isoOf(fulfillment?.delivered_at),
    methodName: method.name ?? null,
    rateName: text(data.rateName),
    window: windowOf(data.window),
    description: text(data.description),
    collection:
      kind === "collection"
        ? {
            name: method.name ?? null,
            stockLocationId: text(data.stockLocationId),
            merchantLocationId: text(data.merchantLocationId),
          }
        : null,
  }
}

function statusOf(
  fulfillment:
    | Pick<NonNullable<LastmileOrderLike["fulfillments"]>[number], "shipped_at" | "delivered_at" | "canceled_at">
    | undefined
): LastmileTrackingStatus {
  if (!fulfillment) {
    return "pending"
  }
  if (fulfillment.canceled_at) {
    return "canceled"
  }
  if (fulfillment.delivered_at) {
    return "delivered"
  }
  return fulfillment.shipped_at ? "shipped" : "booked"
}

/**
 * A shipping method's data is lastmile's when its `optionId` names a lastmile
 * delivery or collection option (`lastmile-<type>`, `lastmile-collection`);
 * returns are not shown.
 */
function lastmileKindOf(data: Record<string, unknown> | null | undefined): "delivery" | "collection" | null {
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
