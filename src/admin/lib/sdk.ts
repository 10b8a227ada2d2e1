import Medusa from "@medusajs/js-sdk"

// The admin is served by the same Medusa server: same origin, session auth.
export const sdk = new Medusa({ baseUrl: "/", auth: { type: "session" } })

export interface Check {
  id: string
  ok: boolean
  message: string
}

export interface LocationView {
  fulfilment_location_id: string
  external_location_id: string | null
  name: string | null
  collection_enabled: boolean
  delivery_enabled: boolean
  stock_location: { id: string; name: string } | null
  has_collection_option: boolean
}

export interface Overview {
  connection: { ok: boolean; message: string; base_url: string | null }
  webhook: { url: string | null; configured: boolean; signed: boolean }
  locations: LocationView[]
  dispatch_location: { id: string; name: string } | null
  checks: Check[]
}

export interface TaskView {
  id: string
  kind: "delivery" | "return"
  status: string
  task_id: string | null
  tracking_id: string | null
  tracking_url: string | null
  service_status: string | null
  tracking_state: string
  unmapped_status: string | null
  attempts: number
  last_error: string | null
  next_attempt_at: string | null
  history: { value: string; at: string; source?: string; phase?: string; detail?: string }[]
}
