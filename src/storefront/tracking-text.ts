/**
 * An order's lastmile tracking in words for a confirmation or an account's
 * order page. A collection reads as one: the store, its address, when the
 * order is ready there, what to bring if the service said, and a tracking
 * link only when the service gave one. A delivery is named by the rate the
 * shopper chose.
 */
import { type LastmileFormatOptions, formatWindow } from "./format"
import { storeAddressUnlessIn } from "./store-address"
import type { LastmileOrderTracking, LastmileTrackingStatus } from "./tracking"

/** Where the order stands, per kind: a collection is never "booked with a courier" or "delivered". */
export const LASTMILE_STATUS_TEXT: Record<LastmileOrderTracking["kind"], Record<LastmileTrackingStatus, string>> = {
  delivery: {
    pending: "We are booking your delivery. The tracking link appears here shortly.",
    booked: "Booked with our courier.",
    shipped: "On its way to you.",
    delivered: "Delivered.",
    canceled: "This delivery was canceled.",
  },
  collection: {
    pending: "We are arranging your collection with the store.",
    booked: "Booked for collection at the store.",
    shipped: "On its way to the store, or ready there to collect.",
    delivered: "Collected.",
    canceled: "This collection was canceled.",
  },
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
  /** Where the order stands, in a sentence that fits its kind (`LASTMILE_STATUS_TEXT`). */
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
  /** The service's tracking page, only when it gave one. */
  link: LastmileTrackingLink | null
  /** "Tracking code LM-4242", once there is a code. */
  codeText: string | null
}

/** The words of an order's tracking (`readOrderTracking`), for its kind. */
export function describeOrderTracking(
  tracking: LastmileOrderTracking,
  options: Omit<LastmileFormatOptions, "co2Unit"> = {}
): LastmileTrackingText {
  const collection = tracking.collection
  return {
    heading: collection ? "Your collection" : "Your delivery",
    title: tracking.choiceName ?? (collection ? "Collection" : "Delivery"),
    statusText: LASTMILE_STATUS_TEXT[tracking.kind][tracking.status],
    windowText: collection ? null : formatWindow(tracking.window, options),
    details: collection ? null : tracking.description,
    storeAddress: collection ? storeAddressUnlessIn(collection.address, collection.readiness) : null,
    readiness: collection?.readiness ?? null,
    bring: collection?.bring ?? null,
    link: tracking.trackingUrl
      ? { href: tracking.trackingUrl, text: collection ? "Follow your order to the store" : "Track your delivery" }
      : null,
    codeText: tracking.trackingNumber ? `Tracking code ${tracking.trackingNumber}` : null,
  }
}
