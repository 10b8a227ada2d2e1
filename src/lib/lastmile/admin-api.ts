/**
 * The JSON the /admin/lastmile routes answer with: one definition for the
 * routes, the admin UI (type-only imports, erased from its bundle) and the
 * demo script. Times are ISO strings, as they travel.
 */

export interface LocationView {
  fulfilment_location_id: string
  external_location_id: string | null
  name: string | null
  collection_enabled: boolean
  delivery_enabled: boolean
  address: unknown
  stock_location: { id: string; name: string } | null
  has_collection_option: boolean
}

export interface Check {
  id: "connection" | "no_collection_enabled" | "unmatched_location" | "store_not_enabled" | "no_dispatch_location"
  ok: boolean
  message: string
}

export interface LastmileOverview {
  connection: { ok: boolean; message: string; base_url: string | null }
  webhook: { path: string | null; url?: string | null; configured: boolean; signed: boolean }
  locations: LocationView[]
  unmatched_stock_locations: { id: string; name: string; external_location_id: string }[]
  dispatch_location: { id: string; name: string } | null
  checks: Check[]
}

/** GET /admin/lastmile/stock-locations/:id */
export interface StockLocationLastmileView {
  connected: boolean
  message: string | null
  location: LocationView | null
  is_dispatch: boolean
}

export interface TaskHistoryEntry {
  value: string
  at: string
  source?: string
  phase?: string
  detail?: string
}

/** One entry of GET /admin/lastmile/orders/:id `tasks`. */
export interface TaskView {
  id: string
  kind: "delivery" | "return"
  status: "pending" | "booking" | "booked" | "failed" | "needs_attention"
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
  return_id: string | null
  history: TaskHistoryEntry[]
}

/** POST /admin/lastmile/setup: what the one-click setup created, found in place, or could not do. */
export interface SetupReport {
  created: string[]
  unchanged: string[]
  skipped: string[]
}
