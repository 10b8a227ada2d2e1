/**
 * The JSON the /admin/lastmile routes answer with, for the routes, the admin UI (type-only imports) and the demo.
 * Times are ISO strings, as they travel.
 */

export interface SalesChannelRef {
  id: string
  name: string
}

export interface LocationView {
  fulfilment_location_id: string
  external_location_id: string | null
  name: string | null
  collection_enabled: boolean
  delivery_enabled: boolean
  address: unknown
  /**
   * The Medusa stock location linked to it: by `address.metadata.external_location_id`,
   * or by its own id when that is the service's externalLocationId (it cannot be unlinked here).
   */
  stock_location: {
    id: string
    name: string
    matched_by: "external_location_id" | "stock_location_id"
    sales_channels: SalesChannelRef[]
  } | null
  has_collection_option: boolean
  /** Why it cannot be linked to a stock location from the admin (no externalLocationId), or null. */
  cannot_link: string | null
  /** Why no stock location can be created from it (that, or no usable address), or null. */
  cannot_create: string | null
}

/** A Medusa stock location as the mapping shows it. */
export interface StockLocationSummary {
  id: string
  name: string
  /** `address.metadata.external_location_id`, or null when none is set. */
  external_location_id: string | null
  /** The service location it is linked to, or null. */
  fulfilment_location_id: string | null
  sales_channels: SalesChannelRef[]
  has_address: boolean
}

export interface Check {
  id: "connection" | "no_collection_enabled" | "unmatched_location" | "store_not_enabled" | "no_dispatch_location"
  ok: boolean
  message: string
}

export interface LastmileOverview {
  connection: { ok: boolean; message: string; base_url: string | null }
  webhook: {
    path: string | null
    url?: string | null
    /**
     * Where the URL's origin comes from: the plugin's `backend_url`, Medusa's
     * `admin.backendUrl`, the proxy's forwarded headers (only with
     * `trust_forwarded_headers`), or the request's own Host.
     */
    url_source?: "backend_url" | "admin.backendUrl" | "forwarded_headers" | "request" | null
    configured: boolean
    signed: boolean
  }
  locations: LocationView[]
  unmatched_stock_locations: { id: string; name: string; external_location_id: string }[]
  dispatch_location: { id: string; name: string } | null
  checks: Check[]
  /** Every Medusa stock location, with the service location and sales channels it is linked to. */
  stock_locations: StockLocationSummary[]
}

/** POST /admin/lastmile/locations/:id/link {stock_location_id}, DELETE …/link, POST …/stock-location */
export interface LocationMappingResult {
  fulfilment_location_id: string
  external_location_id: string
  /** The stock location linked to it now; null after an unlink. */
  stock_location: { id: string; name: string } | null
  /** Whether anything was changed (false: it was already so). */
  changed: boolean
  /** What was done, in the merchant's words. */
  message: string
}

/** POST /admin/lastmile/locations/:id/collection {enabled} */
export interface CollectionSwitchResult {
  fulfilment_location_id: string
  collection_enabled: boolean
}

/** The body of POST /admin/lastmile/setup (every field optional: `{}` sets up what it can). */
export interface SetupRequest {
  /** The stock location whose shipping zone gets the lastmile-return option; the dispatch location when absent. */
  return_location_id?: string
  /** Sales channels every linked stock location is added to. */
  sales_channel_ids?: string[]
}

/** GET /admin/lastmile/stock-locations/:id */
export interface StockLocationLastmileView {
  connected: boolean
  message: string | null
  location: LocationView | null
  is_dispatch: boolean
  /** What the store tells shoppers who collect there, and where it is (absent from older plugins). */
  pickup?: StockLocationPickup
}

/**
 * A store's own words for collecting there, the dates it is closed besides its weekly hours, and its position (for
 * "nearest first"): kept on Medusa's stock location (decision 65).
 */
export interface StockLocationPickup {
  /** At most 500 characters, cleaned as the service's text is; null when none. */
  instructions: string | null
  /** `YYYY-MM-DD`, in the store's own calendar, sorted; a collection is never ready or due on one. */
  closed_dates: string[]
  /** `metadata.latitude` / `metadata.longitude` of the stock location; null when either is missing. */
  position: { latitude: number; longitude: number } | null
}

/**
 * The body of POST /admin/lastmile/stock-locations/:id/pickup: each field given replaces what is kept (`null` or `""`
 * clears the instructions, `[]` the dates, `null` the position); a field left out stays as it is.
 */
export interface StockLocationPickupRequest {
  instructions?: string | null
  closed_dates?: string[]
  position?: { latitude: number; longitude: number } | null
}

export interface TaskHistoryEntry {
  value: string
  /** When it was first recorded. */
  at: string
  source?: string
  /** The admin user behind an admin's entry (a hand-over, an extension). */
  actor_id?: string | null
  phase?: string
  detail?: string
  /** A status that came back: how many times it was reported in all, and when it came back (the first 20 times). */
  times?: number
  last_at?: string
  again_at?: string[]
  /** A delivery window the service gave with the status, ISO 8601. */
  window?: { from: string; to: string }
}

/** Something the merchant must look at on a booked task (an edit after booking). */
export interface TaskNotice {
  kind: "order_edited"
  message: string
  at: string
  added?: { title: string; quantity: number }[]
  removed?: { title: string; quantity: number }[]
}

/** How Medusa's side of a booked task was cancelled. */
export interface TaskCancellation {
  by: "service" | "merchant"
  at: string
  /** The admin user who cancelled it anyway (by: merchant). */
  actor_id?: string | null
  /** The service's status when it was read for the cancellation. */
  service_status?: string | null
  /** `not_collected`: a collection cancelled because nobody came for it by its collect-by. */
  reason?: "not_collected" | null
}

/** A collection's hold at the store: never its code, which only the shopper is told (decision 65). */
export interface TaskCollectionView {
  /** When it became ready (ISO 8601); null before. */
  ready_at: string | null
  /** The store keeps it until then; null before it is ready (or for a task made ready before the plugin kept it). */
  collect_by: string | null
  /** Ready, not collected, and its collect-by has passed: Extend or Cancel. */
  expired: boolean
  /** The open days it is held once ready (`collection.hold_days` when it was booked); null for one booked before. */
  hold_days: number | null
  /** Each Extend: when, by how many open days, the new collect-by, and who. */
  extensions: { at: string; days: number; collect_by: string; actor_id: string | null }[]
  /** The hand-over: with the shopper's code, by the merchant's override (its reason), or marked picked up in Medusa. */
  handed_over: {
    at: string
    via: "code" | "override" | "medusa"
    actor_id: string | null
    reason: string | null
  } | null
  /** Five wrong codes in 15 minutes lock Hand over until then (429); null when not locked. */
  locked_until: string | null
  /** Hand over is possible now: booked, ready or not, not collected, not cancelled. */
  can_hand_over: boolean
  /** Extend is possible now: ready, not collected, not cancelled. */
  can_extend: boolean
}

/** The body of POST /admin/lastmile/tasks/:id/hand-over: the shopper's code, or why it is handed over without one. */
export type HandOverRequest = { code: string } | { override_reason: string }

/** The body of POST /admin/lastmile/tasks/:id/extend. */
export interface ExtendCollectionRequest {
  /** Open days to add to the collect-by (1 to 30). */
  days: number
}

/** One entry of GET /admin/lastmile/orders/:id `tasks`. */
export interface TaskView {
  id: string
  kind: "delivery" | "return"
  /** What the task is for: the order's own delivery, a replacement (exchange, claim), items shipped separately, a return. */
  origin: "order" | "exchange" | "claim" | "part" | "return"
  /** How the merchant reads it: "Delivery", "Replacement (exchange)", "Return", … */
  label: string
  /** The order name the service was given (`#1001`, `Replacement for #1001`). */
  name: string | null
  /** The reference the service knows it by. */
  merchant_order_id: string
  status: "pending" | "booking" | "booked" | "failed" | "needs_attention" | "cancelled"
  task_id: string | null
  tracking_id: string | null
  tracking_url: string | null
  rate_code: string | null
  delivery_type: string | null
  merchant_location_id: string | null
  service_status: string | null
  tracking_state: "awaiting" | "shipped" | "delivered" | "cancelled"
  unmapped_status: string | null
  attempts: number
  last_error: string | null
  next_attempt_at: string | null
  booked_at: string | null
  last_checked_at: string | null
  fulfillment_id: string | null
  return_id: string | null
  notice: TaskNotice | null
  cancellation: TaskCancellation | null
  /**
   * While the task is live at the service and Medusa's fulfillment is not
   * cancelled: cancel it in the service's app (then Refresh), or cancel it
   * here anyway (`POST /admin/lastmile/tasks/:id/cancel`).
   */
  cancel_at_service: boolean
  /**
   * What the shopper was charged for the order's own delivery at checkout (the order's shipping method): its
   * amount, the rate it named (none when chosen at the estimate), and whether that price was the merchant's
   * estimate. Null for other tasks, and where the task is answered alone.
   */
  charged: { amount: number; currency_code: string; rate_name: string | null; estimate: boolean } | null
  /** The rate it was booked at, from the booking's own quote (decision 52); null until booked. */
  booked_rate: { rate_code: string; name: string | null; amount: number | null; currency_code: string | null } | null
  /** A collection's hold, hand-over and extensions; null for a delivery or a return (absent from older plugins). */
  collection?: TaskCollectionView | null
  history: TaskHistoryEntry[]
}

/**
 * The shopper's note to the courier on the order's own delivery (GET /admin/lastmile/orders/:id `delivery_note`), and
 * what became of it at the service.
 */
export interface DeliveryNoteView {
  /** The shopper's words, as kept (cleaned of control and bidi characters). */
  text: string
  /**
   * `sent` with the booking as `order.note`; `refused` by the service, which booked the delivery without it; `not_sent`
   * (`send_delivery_note` is off, or the booking was adopted or made before); `not_booked` yet.
   */
  to_service: "sent" | "refused" | "not_sent" | "not_booked"
  /** Whether the plugin sends notes to the service (`send_delivery_note`). */
  send_enabled: boolean
}

/** GET /admin/lastmile/orders/:id */
export interface OrderTasksResponse {
  tasks: TaskView[]
  /** Null when the shopper left no note (or chose a collection). */
  delivery_note: DeliveryNoteView | null
}

/** POST /admin/lastmile/setup: what the one-click setup created, found in place, or could not do. */
export interface SetupReport {
  created: string[]
  unchanged: string[]
  skipped: string[]
}

/** A channel the plugin's messages go on, and what the app registered on it. */
export interface NotificationChannelView {
  /** Who it reaches: the shopper's email or phone, the admin's bell, the merchant's own addresses. */
  role: "shopper_email" | "shopper_sms" | "merchant_feed" | "merchant_email"
  /** Null: not set (the shopper's texts when `sms_channel` is not). */
  channel: string | null
  /** The provider Medusa sends it through; null: none (nothing goes on it). */
  provider: { id: string; resolve: string; name: string | null } | null
  /** A send counts only when the provider answers with a message id (`require_message_id`). */
  requires_message_id: boolean
  /** The merchant's addresses (`merchant_to`), for `merchant_email`. */
  recipients?: string[]
}

/** GET /admin/lastmile/notifications: which messages are on, on which channels and providers, in which words. */
export interface NotificationsOverview {
  enabled: boolean
  channels: NotificationChannelView[]
  events: { event: string; audience: "shopper" | "merchant"; on: boolean; template: string; by_sms: boolean }[]
  /** The default locale, the locales with words, and the store's own (Medusa's store locales). */
  locales: { default: string; with_words: string[]; store: string[] }
  /** Null: the store's zone at the service, else UTC. */
  time_zone: string | null
  send_content: boolean
}

/** What one test message came to. */
export interface NotificationTestResult {
  event: string
  via: "email" | "sms" | "merchant_email"
  channel: string
  to: string
  /** The provider's id, or null when the channel has none. */
  provider: string | null
  /** sent; not_sent (answered without a message id where one is needed); failed (it threw); no_provider. */
  status: "sent" | "not_sent" | "failed" | "no_provider"
  subject: string
  /** The message id the provider answered with, if any. */
  external_id: string | null
  /** Why it was not sent. */
  error: string | null
}

/** POST /admin/lastmile/notifications/test: every message sent once to the address and phone given. */
export interface NotificationTestReport {
  results: NotificationTestResult[]
}

export type * from "./insights-api"
