/**
 * An order's lastmile tracking in words for a confirmation or an order page: a collection as one (store, address,
 * readiness, what to bring), a delivery named by the rate chosen.
 */
import { type LastmileCollectionCodeText, describeCollectionCode } from "./collection-code.js"
import type { LastmileBookingState, LastmileShopperStep } from "./contract.js"
import { type LastmileFormatOptions, formatCollectBy, formatWindow } from "./format.js"
import { safeHttpUrl } from "./safe-url.js"
import { storeAddressUnlessIn } from "./store-address.js"
import type { LastmileOrderTracking, LastmileTrackingStatus } from "./tracking.js"

/**
 * Where the order stands, per kind: a collection is never "booked with a
 * courier" or "delivered". `pending` is said in more detail when the booking
 * state was read (`LASTMILE_PENDING_TEXT`).
 */
export const LASTMILE_STATUS_TEXT: Record<LastmileOrderTracking["kind"], Record<LastmileTrackingStatus, string>> = {
  delivery: {
    pending: "We are booking your delivery with our courier. The tracking link shows here once it is booked.",
    booked: "Booked with our courier.",
    shipped: "On its way to you.",
    delivered: "Delivered.",
    canceled: "This delivery was canceled.",
  },
  collection: {
    pending: "We are arranging your collection with the store. Its details show here once it is booked.",
    booked: "Booked for collection at the store.",
    shipped: "On its way to the store, or ready there to collect.",
    delivered: "Collected.",
    canceled: "This collection was canceled.",
  },
}

/**
 * A booked order's step once the service reported one, per kind: "shipped"
 * alone cannot tell a parcel with the driver from one at the depot, nor a
 * collection ready at the store from one on its way there.
 */
export const LASTMILE_STEP_TEXT: {
  delivery: Record<Exclude<LastmileShopperStep, "ready_for_collection">, string>
  collection: Record<Extract<LastmileShopperStep, "ready_for_collection">, string>
} = {
  delivery: {
    out_for_delivery: "Out for delivery: it is with the driver.",
    problem: "The courier reported a problem with your delivery.",
  },
  collection: {
    ready_for_collection: "Ready to collect at the store.",
  },
}

/** A ready collection's end, said instead of the step once the booking route says so. */
export const LASTMILE_COLLECTION_TEXT = {
  expired: "Your order was not collected by its collect-by date. The shop will be in touch about what happens next.",
} as const

/** Where a booking stands before it is booked, which the shopper is told truly: each sentence holds whatever comes next. */
export type LastmilePendingState = Exclude<LastmileBookingState, "booked" | "cancelled"> | "books_on_fulfillment"

/**
 * A pending booking in words, by where it stands. None promises a time, and
 * none promises an email: pass `emailsWhenBooked` when the shop sends one.
 */
export const LASTMILE_PENDING_TEXT: Record<LastmileOrderTracking["kind"], Record<LastmilePendingState, string>> = {
  delivery: {
    not_started: LASTMILE_STATUS_TEXT.delivery.pending,
    booking: LASTMILE_STATUS_TEXT.delivery.pending,
    retrying:
      "Booking your delivery is taking longer than usual. We keep trying, and the tracking link shows here once it is booked.",
    needs_attention:
      "The shop needs to check your delivery before it can be booked. The tracking link shows here once it is booked.",
    books_on_fulfillment: "Your delivery is booked when the shop sends your order. The tracking link shows here then.",
  },
  collection: {
    not_started: LASTMILE_STATUS_TEXT.collection.pending,
    booking: LASTMILE_STATUS_TEXT.collection.pending,
    retrying:
      "Arranging your collection is taking longer than usual. We keep trying, and its details show here once it is booked.",
    needs_attention:
      "The shop needs to check your order before your collection can be arranged. Its details show here once it is booked.",
    books_on_fulfillment: "Your collection is arranged when the shop sends your order to the store.",
  },
}

/** Added to a booking that takes longer, when the storefront says the shop emails the shopper once it is booked. */
export const EMAIL_WHEN_BOOKED_TEXT = "We will email you when it is booked."

export interface LastmileTrackingTextOptions extends Omit<LastmileFormatOptions, "co2Unit"> {
  /**
   * Set when the shop emails the shopper once the delivery is booked (the
   * plugin's notifications with an email provider): a booking that takes
   * longer then says so. Off by default, so no page promises an email the
   * shop does not send.
   */
  emailsWhenBooked?: boolean
}

export interface LastmileTrackingLink {
  href: string
  text: string
}

export interface LastmileTrackingText {
  /** "Your delivery" or "Your collection". */
  heading: string
  /** What was chosen: the rate's own name ("Next day eco"), or the store's ("Camden"). */
  title: string
  /** Where the order stands, in a sentence that fits its kind (`LASTMILE_STATUS_TEXT`, `LASTMILE_PENDING_TEXT`). */
  statusText: string
  /** A delivery's window ("Tomorrow, 08:00–20:00"); null for a collection, whose readiness says when. */
  windowText: string | null
  /** A delivery's rate text ("By cargo bike"); null for a collection (see `readiness`). */
  details: string | null
  /** A collection's store address on one line; null when the readiness text already names it. */
  storeAddress: string | null
  /** When a collection is ready, in the service's words. */
  readiness: string | null
  /** What to bring to collect, only when the service said. */
  bring: string | null
  /** The service's tracking page, only when it gave one, and only an http: or https: URL. */
  link: LastmileTrackingLink | null
  /** "Tracking code LM-4242", once there is a code. */
  codeText: string | null
  /**
   * When a ready collection must be collected by: "Friday 31 July, 18:00" (in `timeZone`, the store's), for beside a
   * "Collect by" label; null until it is ready, once collected, and for a delivery.
   */
  collectBy: string | null
  /** The same as a sentence: "Collect by Friday 31 July, 18:00." */
  collectByText: string | null
  /**
   * The code to show at the counter: as the messages write it ("ACE 479", in `groups`), as it is copied ("ACE479"), and
   * as a screen reader should say it ("A C E 4 7 9"), with its label and hint; null until the collection is ready,
   * once collected, and for a delivery.
   */
  collectionCode: LastmileCollectionCodeText | null
  /** The store's own words for collecting there ("Ask at the desk upstairs"); null without any, and for a delivery. */
  instructions: string | null
}

/** The words of an order's tracking (`readOrderTracking`), for its kind. */
export function describeOrderTracking(
  tracking: LastmileOrderTracking,
  options: LastmileTrackingTextOptions = {}
): LastmileTrackingText {
  const collection = tracking.collection
  const href = safeHttpUrl(tracking.trackingUrl)
  // A booking that is retried or waits for the shop has confirmed no time: the checkout's window and readiness are not said.
  const state = tracking.status === "pending" ? pendingStateOf(tracking) : null
  const timed = state !== "retrying" && state !== "needs_attention"
  // Once ready, when it would be ready is said no more (the address then shows on its own).
  const readiness = timed && tracking.step !== "ready_for_collection" ? (collection?.readiness ?? null) : null
  return {
    heading: collection ? "Your collection" : "Your delivery",
    title: tracking.choiceName ?? (collection ? "Collection" : "Delivery"),
    statusText: statusTextOf(tracking, options),
    windowText: collection || !timed ? null : formatWindow(tracking.window, options),
    details: collection || !timed ? null : tracking.description,
    storeAddress: collection ? storeAddressUnlessIn(collection.address, readiness) : null,
    readiness,
    bring: collection?.bring ?? null,
    link: href ? { href, text: collection ? "Follow your order to the store" : "Track your delivery" } : null,
    codeText: tracking.trackingNumber ? `Tracking code ${tracking.trackingNumber}` : null,
    ...collectionTextOf(tracking, options),
  }
}

/** A ready collection's collect-by and code, while they matter (not once collected, cancelled or expired). */
function collectionTextOf(
  tracking: LastmileOrderTracking,
  options: LastmileTrackingTextOptions
): Pick<LastmileTrackingText, "collectBy" | "collectByText" | "collectionCode" | "instructions"> {
  const collection = tracking.collection
  const open =
    !!collection && !collection.collected && tracking.status !== "delivered" && tracking.status !== "canceled"
  const collectBy = open && !collection.expired ? formatCollectBy(collection.collectBy, options) : null
  return {
    collectBy,
    collectByText: collectBy ? `Collect by ${collectBy}.` : null,
    collectionCode: open ? describeCollectionCode(collection.code) : null,
    instructions: collection && tracking.status !== "canceled" ? collection.instructions : null,
  }
}

/** The booking state a pending order is told by: where it stands, if it was read. */
export function pendingStateOf(tracking: Pick<LastmileOrderTracking, "booking" | "booksOn">): LastmilePendingState {
  switch (tracking.booking) {
    case "retrying":
    case "needs_attention":
    case "booking":
      return tracking.booking
    case "not_started":
      return tracking.booksOn === "fulfillment" ? "books_on_fulfillment" : "not_started"
    default:
      return "booking"
  }
}

/** The step's sentence, when the order's kind has one for it. */
function stepTextOf(tracking: LastmileOrderTracking): string | null {
  const texts: Partial<Record<LastmileShopperStep, string>> = LASTMILE_STEP_TEXT[tracking.kind]
  return tracking.step ? (texts[tracking.step] ?? null) : null
}

function statusTextOf(tracking: LastmileOrderTracking, options: LastmileTrackingTextOptions): string {
  if (tracking.collection?.expired && tracking.status !== "delivered" && tracking.status !== "canceled") {
    return LASTMILE_COLLECTION_TEXT.expired
  }
  const step = stepTextOf(tracking)
  if (step) {
    return step
  }
  if (tracking.status !== "pending") {
    return LASTMILE_STATUS_TEXT[tracking.kind][tracking.status]
  }
  const state = pendingStateOf(tracking)
  const text = LASTMILE_PENDING_TEXT[tracking.kind][state]
  const late = state === "retrying" || state === "needs_attention"
  return late && options.emailsWhenBooked ? `${text} ${EMAIL_WHEN_BOOKED_TEXT}` : text
}
