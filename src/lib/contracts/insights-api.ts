/**
 * What `GET /admin/lastmile/insights` answers and the admin page plots: counts of the period in the store's time zone,
 * and `previous`, the same for the period before it.
 */

/** Why an option was not offered to a cart: the code the rates route shows as `unavailable_code`. */
export type OfferUnavailableCode = string

export interface InsightsOfferRow {
  /** The shipping option (null when it has been deleted since). */
  option_id: string | null
  name: string
  kind: "delivery" | "collection"
  /** The lastmile fulfillment option it is (`lastmile-next-day`, `lastmile-collection`). */
  fulfillment_option: string
  /** The store (collection) or the dispatch location (delivery). */
  stock_location_id: string | null
  stock_location_name: string | null
  /** Carts the option was priced for and could be chosen by (each once a day, whatever its changes). */
  offered: number
  /** Orders placed with it. */
  chosen: number
  /** Carts it was priced for and never offered to that day, by the latest reason. */
  unavailable: Record<OfferUnavailableCode, number>
}

export interface InsightsFigures {
  offers: {
    /** Carts priced, each counted once a day whatever its changes and whichever route priced it. */
    carts: number
    by_option: InsightsOfferRow[]
  }
  deliveries: {
    /** Deliveries booked for orders placed in the period. */
    booked: number
    /** Deliveries delivered in the period, split against the window the shopper was quoted. */
    delivered: number
    early: number
    on_time: number
    late: number
    /** Delivered, but booked at a rate without a window. */
    no_window: number
    /** The median lateness of the late ones, in minutes. */
    late_minutes_p50: number | null
  }
  collections: {
    booked: number
    /** Made ready in the period by the end of the readiness window quoted. */
    ready_on_time: number
    ready_late: number
    /** Made ready, but booked at a rate without a window. */
    no_window: number
    /** Collected by the shopper in the period. */
    collected: number
    /** Made ready in the period and not collected (still waiting at the store, or sent back). */
    not_collected: number
  }
  /** The service's CO₂ figure of the booked rate, summed over the parcels delivered or collected in the period. */
  co2_saved_kg: number
  booking: {
    /** From the order placed to the task booked, over the bookings of orders placed in the period. */
    placed_to_booked_ms: { p50: number | null; p95: number | null }
    /** Bookings of the period with at least one failed attempt, whatever came after. */
    failed: number
    /** Bookings of the period waiting for the merchant now. */
    needs_attention: number
    /** Each failed booking's latest reason. */
    failure_reasons: { reason: string; count: number }[]
  }
  /** The share of status moves that came from a webhook, against the polling job (null when none). */
  webhook_share: number | null
  status_moves: { webhook: number; poll: number; admin: number }
}

/** One week (Monday to Sunday, named by its Monday) of the period, for the charts. */
export interface InsightsWeek {
  week: string
  early: number
  on_time: number
  late: number
  no_window: number
  co2_saved_kg: number
  booked: number
  placed_to_booked_p50_ms: number | null
  failed: number
}

export interface InsightsReport extends InsightsFigures {
  period: { from: string; to: string; time_zone: string }
  previous: InsightsFigures & { period: { from: string; to: string } }
  weeks: InsightsWeek[]
  /** The store the figures are filtered to, or null for every store. */
  stock_location_id: string | null
  /** The stores one may filter by. */
  stores: { id: string; name: string }[]
  /** Tasks of the period the demo made up (`npm run demo`), so the page can say so. */
  demo_tasks: number
  generated_at: string
}
