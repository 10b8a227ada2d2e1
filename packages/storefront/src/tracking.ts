/**
 * An order's lastmile delivery as the store API shows it: tracking from the fulfillment's `data`, progress from its
 * `shipped_at`/`delivered_at`, the choice from the method's data; current and older data both read.
 */
import { isLastmileProviderId } from "./choices.js"
import { lastmileKindOf, readChosenMethod, text, windowOf } from "./chosen-method.js"
import type {
  LastmileBookingState,
  LastmileCollectionView,
  LastmileOrderBookingResponse,
  LastmileShopperStep,
  LastmileWindow,
} from "./contract.js"
import { safeHttpUrl } from "./safe-url.js"
import { readStoreAddress } from "./store-address.js"
import type { LastmileDateLike, LastmileOrderLike, LastmileStoreAddress } from "./types.js"

/**
 * - `pending`: not booked yet: the plugin books seconds after the order is placed (or once the merchant
 *   fulfils it, with `booking_trigger: "fulfillment"`), and retries a failed booking; `booking` says where it stands.
 * - `booked`: booked with the service, not on its way yet.
 * - `shipped`: on its way (for a collection: on its way to the store, or ready there).
 * - `delivered`: delivered (for a collection: handed over).
 * - `canceled`: the lastmile fulfillment was canceled in Medusa, or its booking was cancelled at the service.
 */
export type LastmileTrackingStatus = "pending" | "booked" | "shipped" | "delivered" | "canceled"

/** A collection's store, as the confirmation shows it. */
export interface LastmileCollectionDetails {
  /** The store's name (older data: the shipping option's name, "Collect from <store>"). */
  name: string | null
  /** The store's address, to show where to collect (older data carries none: see `readiness`). */
  address: LastmileStoreAddress | null
  /** When the order is ready there: the service's readiness text, kept from checkout. */
  readiness: string | null
  /**
   * What to bring to collect, only when the service said so (a
   * `collectionInstructions` or `bring` text in the method's or the
   * booking's data); never made up.
   */
  bring: string | null
  /** Older data only (the method no longer carries internal ids). */
  stockLocationId: string | null
  /** Older data only. */
  merchantLocationId: string | null
  /**
   * The store's own words for collecting there: as the booking route gives them now, else as kept on the method
   * when the shopper chose the store; null without any.
   */
  instructions: string | null
  /** When it became ready at the store (ISO 8601); null until then, or when the booking route was not read. */
  readyAt: string | null
  /** Until when the store keeps it (ISO 8601); null until it is ready, or when not known. */
  collectBy: string | null
  /** The code to show at the counter (6 characters); null until ready, and once collected or cancelled. */
  code: string | null
  /** Handed over at the store. */
  collected: boolean
  /** Its collect-by passed and nobody collected it: the shop decides what happens next. */
  expired: boolean
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
  /**
   * Where the booking stands while `status` is `pending` (from `GET
   * /store/lastmile/orders/:id/booking`): under way, retrying, waiting for
   * the shop, or not started until the shop sends the order (`booksOn`).
   * Null when it was not read (`readOrderTracking` of an order alone).
   */
  booking: LastmileBookingState | null
  /** When the plugin books: as the order is placed, or once the shop fulfils it; null when not read. */
  booksOn: "order_placed" | "fulfillment" | null
  /**
   * While `booked` or `shipped`, the latest step the service reported (out for delivery, a problem, ready
   * at the store), from the booking route's answer; null when none was, when done, or when not read.
   */
  step: LastmileShopperStep | null
}

/**
 * The order's lastmile delivery, or null when no shipping method of the order
 * is lastmile's. Pass the booking route's answer (`lastmile.retrieveBooking`)
 * to tell a booking under way from one that waits for the shop.
 */
export function readOrderTracking(
  order: LastmileOrderLike,
  booking: LastmileOrderBookingResponse | null = null
): LastmileOrderTracking | null {
  const chosen = readChosenMethod(order)
  if (!chosen) {
    return null
  }
  const method = [...(order.shipping_methods ?? [])].reverse().find((m) => lastmileKindOf(m.data) !== null)
  const data = method?.data ?? {}
  const fulfillment = liveFulfillment(order.fulfillments ?? [])
  const booked = fulfillment?.data ?? {}
  const bookedTask = readBooking(fulfillment?.data)
  const label = (fulfillment?.labels ?? []).find((l) => l.tracking_number)
  const rateName = chosen.rateName ?? text(booked.rateName)
  const ready = booking?.booking?.collection ?? null
  const collection =
    chosen.kind === "collection" ? collectionOf(data, booked, chosen.optionName, chosen.description, ready) : null
  const state = booking?.booking?.state ?? null
  const fulfilled = statusOf(fulfillment, bookedTask !== null || label !== undefined)
  // Handed over at the store: the booking route may say so a moment before Medusa's fulfillment does.
  const status = collection?.collected && fulfilled !== "canceled" ? "delivered" : fulfilled
  return {
    orderId: order.id,
    kind: chosen.kind,
    // An order cancelled before its booking has no fulfillment to say so.
    status: status === "pending" && state === "cancelled" ? "canceled" : status,
    trackingNumber: bookedTask?.trackingId ?? label?.tracking_number ?? null,
    trackingUrl: safeHttpUrl(bookedTask?.trackingUrl) ?? safeHttpUrl(label?.tracking_url),
    shippedAt: isoOf(fulfillment?.shipped_at),
    deliveredAt: isoOf(fulfillment?.delivered_at),
    methodName: chosen.optionName,
    rateName,
    choiceName: collection ? collection.name : (rateName ?? chosen.optionName),
    window: chosen.window ?? windowOf(booked.window),
    description: chosen.description,
    collection,
    booking: state,
    booksOn: booking?.booking?.books_on ?? null,
    step: status === "booked" || status === "shipped" ? (booking?.booking?.step ?? null) : null,
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
  readiness: string | null,
  ready: LastmileCollectionView | null
): LastmileCollectionDetails {
  const store = storeOf(data) ?? storeOf(booked)
  return {
    name: text(store?.name) ?? methodName,
    address: readStoreAddress(store?.address),
    readiness,
    bring: bringOf(data) ?? bringOf(booked),
    stockLocationId: text(data.stockLocationId),
    merchantLocationId: text(data.merchantLocationId),
    instructions: text(ready?.instructions) ?? text(ready?.store?.instructions) ?? text(store?.instructions),
    readyAt: text(ready?.ready_at),
    collectBy: text(ready?.collect_by),
    code: ready?.collected ? null : codeOf(ready?.code),
    collected: ready?.collected === true,
    expired: ready?.expired === true && ready.collected !== true,
  }
}

/** A collection code as the shopper shows it: its characters, upper case, without spaces. */
function codeOf(value: unknown): string | null {
  const code = typeof value === "string" ? value.replace(/\s+/g, "").toUpperCase() : ""
  return code ? code : null
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

type StoreData = { name?: unknown; address?: unknown; instructions?: unknown }

function storeOf(data: Record<string, unknown>): StoreData | null {
  const store = data.store
  return store && typeof store === "object" ? (store as StoreData) : null
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
