/**
 * A task row as the order widget and the admin API show it: status, history, tracking and what the merchant can do,
 * with the service's text cleaned again (decision 29).
 */
import type { TaskCancellation, TaskHistoryEntry, TaskNotice, TaskView } from "../contracts/admin-api"
import { taskLabel } from "./task-label"
import { checkLink, cleanText } from "../service-client"

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

/** The columns of a task row the view reads (the module's `LastmileTaskRow` has them all). */
export interface TaskViewRow {
  id: string
  kind: "delivery" | "return"
  origin: TaskView["origin"] | null
  name: string | null
  merchant_order_id: string
  status: TaskView["status"]
  task_id: string | null
  tracking_id: string | null
  tracking_url: string | null
  rate_code: string | null
  delivery_type: string | null
  merchant_location_id: string | null
  service_status: string | null
  tracking_state: TaskView["tracking_state"]
  unmapped_status: string | null
  attempts: number
  last_error: string | null
  next_attempt_at: Date | string | null
  booked_at: Date | string | null
  last_checked_at: Date | string | null
  fulfillment_id: string | null
  return_id: string | null
  notice: unknown
  cancellation: unknown
  status_history: unknown
}

/** Text a row holds from the service (written before its answers were cleaned, or in an error), as shown. */
const text = (value: string | null) => (value === null ? null : cleanText(value))
const link = (value: string | null) => {
  const checked = value === null ? null : checkLink(value)
  return checked?.ok ? checked.href : null
}

export function toTaskView(t: TaskViewRow): TaskView {
  const origin = t.origin ?? (t.kind === "return" ? "return" : "order")
  return {
    id: t.id,
    kind: t.kind,
    origin,
    label: taskLabel(origin),
    name: t.name,
    merchant_order_id: t.merchant_order_id,
    status: t.status,
    task_id: t.task_id,
    tracking_id: text(t.tracking_id),
    tracking_url: link(t.tracking_url),
    rate_code: t.rate_code,
    delivery_type: t.delivery_type,
    merchant_location_id: t.merchant_location_id,
    service_status: text(t.service_status),
    tracking_state: t.tracking_state,
    unmapped_status: text(t.unmapped_status),
    attempts: t.attempts,
    last_error: text(t.last_error),
    next_attempt_at: iso(t.next_attempt_at),
    booked_at: iso(t.booked_at),
    last_checked_at: iso(t.last_checked_at),
    fulfillment_id: t.fulfillment_id,
    return_id: t.return_id,
    // The row's JSON columns hold what the plugin wrote there: these shapes.
    notice: (t.notice as TaskNotice | null) ?? null,
    cancellation: (t.cancellation as TaskCancellation | null) ?? null,
    cancel_at_service:
      t.status === "booked" && !t.cancellation && t.tracking_state !== "delivered" && t.tracking_state !== "cancelled",
    history: ((t.status_history as { entries?: TaskHistoryEntry[] } | null)?.entries ?? []).map((entry) => ({
      ...entry,
      value: cleanText(entry.value),
      ...(entry.detail ? { detail: cleanText(entry.detail) } : {}),
    })),
  }
}
