/**
 * The client-facing contract of medusa-plugin-lastmile, defined once: its store routes' JSON and the public `data` it
 * stores on methods and fulfillments (decisions 20 and 34). Types only.
 */

/** A delivery window as the service gives it: ISO 8601 UTC timestamps. */
export interface LastmileWindow {
  from: string
  to: string
}

/**
 * A detail a quote needs, named as the store API names it: the shopper's
 * (`shipping_address`, `shipping_address.name`, `shipping_address.phone`,
 * `email`, `items`) or the merchant's (`store_address`, a stock location's).
 */
export type LastmileInputField =
  "shipping_address" | "shipping_address.name" | "shipping_address.phone" | "email" | "items" | "store_address"

/** One delivery rate of an option's quote, as a storefront shows it beside the others. */
export interface LastmileDeliveryRate {
  /** Send as `data.rate_code` when adding the shipping method to choose this rate. */
  rate_code: string
  name: string | null
  description: string | null
  window: LastmileWindow | null
  co2_savings: number | null
  /** Major units of the cart's currency; null when the rate cannot be offered. */
  amount: number | null
  available: boolean
  /** Why the rate cannot be offered, in words. */
  unavailable_reason: string | null
}

/**
 * What a storefront shows for one lastmile option besides its amount. It
 * travels in the provider's price result, so Medusa's own `/calculate`
 * answer carries it too (as `calculated_price.lastmile`).
 */
export interface LastmileRateDetails {
  available: boolean
  /** Machine-readable cause when unavailable (`input_incomplete`, `rate_error`, `service_unavailable`, …). */
  unavailable_code: string | null
  /** The cause in words for the shopper. */
  unavailable_reason: string | null
  /** For `input_incomplete`: which details are missing or unusable. Else empty. */
  unavailable_fields: LastmileInputField[]
  rate_code: string | null
  delivery_type: string | null
  name: string | null
  description: string | null
  window: LastmileWindow | null
  co2_savings: number | null
  eligibility: string | null
  /** The store's id at the service, for a collection option. */
  merchant_location_id: string | null
  /** True when the price is the merchant's outage fallback, not a live quote. */
  fallback: boolean
  /** True when the live quote failed for a moment and the price is the one the shopper chose it at. */
  kept: boolean
  /** A delivery option's rates, offerable ones first, best first; empty for collection. */
  rates: LastmileDeliveryRate[]
  /**
   * When the quote this was read from was made (ISO 8601); null when no
   * quote was read. Rates are good for `quote_cache_ttl_seconds` after it.
   */
  quoted_at: string | null
}

/** One priced lastmile option, as `GET /store/lastmile/rates` answers it. */
export interface LastmileOptionRate {
  shipping_option_id: string
  name: string
  type: "delivery" | "collection"
  /** The rate that prices the option (the chosen one when kept); null when none does. */
  rate_name: string | null
  amount: number | null
  currency_code: string
  is_tax_inclusive: boolean
  description: string | null
  window: LastmileWindow | null
  co2_savings: number | null
  stock_location_id: string | null
  stock_location: { id: string; name: string | null; address: Record<string, unknown> | null } | null
  merchant_location_id: string | null
  /**
   * A store's own words for collecting there (its desk, entrance, parking), as the merchant wrote them; null for a
   * delivery and for a store without any (absent from older plugins).
   */
  instructions?: string | null
  /**
   * How far the store is from the shopper, in kilometres (one decimal), when the rates were asked with `near` and the
   * store's position is known; else null (absent from older plugins). Store rows come nearest first.
   */
  distance_km?: number | null
  available: boolean
  unavailable_reason: string | null
  unavailable_code: string | null
  /** For `input_incomplete`: the details to fix (see `LastmileInputField`). */
  unavailable_fields: string[]
  eligibility: string | null
  fallback: boolean
  /**
   * True when the live quote failed for a moment and this is the price the
   * cart's method keeps (the amount the cart is charged), not an estimate.
   */
  kept: boolean
  /**
   * A delivery option's rates, each choosable with `data: { rate_code }`:
   * offerable ones first, best by the option's rule first (the one `amount`
   * prices); rates the service cannot offer follow with their reason.
   */
  rates: LastmileDeliveryRate[]
  /** When the option's quote was made (ISO 8601); null when it was priced without one. */
  quoted_at: string | null
}

/**
 * The shopper's choice the cart lost: the cart changed (its address, its basket) and the rate it held could not
 * be priced for it any more (during an outage, say), so the method was removed rather than charged another price
 * under the rate's name. The shopper chooses again.
 */
export interface LastmileLostChoice {
  shipping_option_id: string
  kind: "delivery" | "collection"
  /** As it was chosen: the rate's name ("Next day eco"), or the store's. */
  name: string
  rate_code: string | null
  /** What the cart was charged for it, in major units of the cart's currency. */
  amount: number | null
  /** What happened and what to do, in words for the shopper. */
  reason: string
}

/** What `GET /store/lastmile/rates?cart_id=…` answers. */
export interface LastmileRatesResponse {
  cart_id: string
  currency_code: string
  /** `PARTIAL` when any of the cart's quotes is partial, else `FULL`; null when no quote was made. */
  eligibility: string | null
  /**
   * Delivery options first, by name; then the stores' collection options, nearest first: by `distance_km` when the
   * rates were asked with `near` and the positions are known, else those in the shopper's postcode district, then
   * its area, then the rest, each group by name.
   */
  rates: LastmileOptionRate[]
  /** The choice the cart lost at its last change, while it holds no shipping method (absent from older plugins). */
  lost_choice?: LastmileLostChoice | null
}

/**
 * Where the booking of an order's own delivery stands:
 * - `not_started`: nothing is booked yet (just placed, or the shop books when it sends the order: see `books_on`);
 * - `booking`: an attempt is under way;
 * - `retrying`: an attempt failed; the plugin tries again by itself;
 * - `needs_attention`: the booking waits for the shop (a rate gone, a price risen, a refusal);
 * - `booked`: booked with the service (the order's fulfillment carries the tracking);
 * - `cancelled`: the order was cancelled before it was booked.
 */
export type LastmileBookingState = "not_started" | "booking" | "retrying" | "needs_attention" | "booked" | "cancelled"

/** What `GET /store/lastmile/orders/:id/booking` answers. */
/**
 * Where a booked delivery or collection stands between booked and done, as the service reported it:
 * - `out_for_delivery`: with the driver (a delivery);
 * - `problem`: the courier reported a problem (a failed attempt, a delay, a return; a delivery);
 * - `ready_for_collection`: ready at the store (a collection).
 */
export type LastmileShopperStep = "out_for_delivery" | "problem" | "ready_for_collection"

export interface LastmileOrderBookingResponse {
  order_id: string
  booking: {
    state: LastmileBookingState
    /** When the plugin books: as the order is placed, or once the shop fulfils it (`booking_trigger`). */
    books_on: "order_placed" | "fulfillment"
    /** The latest step the service reported for a booked task; null before one or once done (absent from older plugins). */
    step?: LastmileShopperStep | null
    /**
     * A collection ready at the store: by when to collect it, the code to show at the counter, the store and its
     * instructions. Null before it is ready; absent for a delivery (and from older plugins).
     */
    collection?: LastmileCollectionView | null
  }
}

/** A collection ready at its store, as the shopper's order page shows it. */
export interface LastmileCollectionView {
  /** When it became ready (ISO 8601). */
  ready_at: string
  /** The store keeps it until then (ISO 8601: closing time on the last day of the hold); null when not known. */
  collect_by: string | null
  /** The code the store checks at the counter (6 characters); null once collected or cancelled. */
  code: string | null
  /** True once it has been handed over. */
  collected: boolean
  /** True when the collect-by has passed and it was not collected: the shop decides what happens next. */
  expired: boolean
  store: LastmileStoreView | null
  /** The store's own words for collecting there; null when it has none. */
  instructions: string | null
}

/** A store as the shopper sees it, kept on a collection's shipping method: its name, address and instructions. */
export interface LastmileStoreView {
  name?: string | null
  /** The store's own words for collecting there (absent from older plugins). */
  instructions?: string | null
  address?: {
    address_1?: string | null
    address_2?: string | null
    city?: string | null
    postal_code?: string | null
    country_code?: string | null
  } | null
}

/**
 * A lastmile shipping method's `data`, as the store API shows it. `provider:
 * "lastmile"` and `kind` mark it; methods chosen with the older data carry
 * `optionId` instead (`lastmile-next-day`, `lastmile-collection`).
 */
export interface LastmileShippingMethodData {
  provider?: "lastmile"
  kind?: "delivery" | "collection"
  /** The older data's mark: the fulfillment option's id. */
  optionId?: string
  /** null when offered at the outage fallback price without a chosen rate. */
  rateCode?: string | null
  /** The chosen rate's name ("Next day eco"). */
  rateName?: string | null
  /** True when the shopper chose the rate (`data.rate_code`); else the option's rule picked it. */
  rateChosen?: boolean
  description?: string | null
  window?: LastmileWindow | null
  /** When the quote behind the method's price was made (ISO 8601). */
  quotedAt?: string | null
  /** Chosen at the merchant's outage price, without a live quote. */
  fallback?: boolean
  /** The store to collect from (collection). */
  store?: LastmileStoreView | null
  /**
   * The shopper's note to the courier (a delivery's, as they wrote it, cleaned): like the address, shown to whoever
   * holds the cart or order id, never put on the fulfillment.
   */
  deliveryNote?: string | null
}

/** What a booking puts in a fulfillment's `data`, as the store API shows it. */
export interface LastmileFulfillmentData {
  provider?: "lastmile"
  kind?: "delivery" | "collection" | "return"
  taskId: number | string
  /** The service's tracking code. */
  trackingId?: string | null
  /** The service's tracking page. */
  trackingUrl?: string | null
  /** The service's status value at booking. */
  status?: string | null
  rateName?: string | null
  window?: LastmileWindow | null
  store?: LastmileStoreView | null
  bookedAt?: string
  /** Set once the booking was cancelled, by the service or by the merchant. */
  cancelled?: "service" | "merchant"
}
