/**
 * The lastmile tasks of an order as the order widget shows them: its own
 * delivery, each replacement's, items shipped separately, and each return,
 * oldest first, each with its status, history, tracking and what the
 * merchant can do about it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { type TaskRow, TaskRowsService } from "../../../../modules/lastmile/services/task-rows"
import type { TaskCancellation, TaskHistoryEntry, TaskNotice, TaskView } from "../../../../lib/contracts/admin-api"
import { taskLabel } from "../../../../lib/booking/task-label"
import { checkLink, cleanText } from "../../../../lib/service-client"

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

export async function orderTasks(container: MedusaContainer, orderId: string): Promise<TaskView[]> {
  const tasks = await TaskRowsService.of(container).list({ order_id: orderId }, { order: { created_at: "ASC" } })
  return tasks.map(toTaskView)
}

/** Text a row holds from the service (written before its answers were cleaned, or in an error), as shown. */
const text = (value: string | null) => (value === null ? null : cleanText(value))
const link = (value: string | null) => {
  const checked = value === null ? null : checkLink(value)
  return checked?.ok ? checked.href : null
}

export function toTaskView(t: TaskRow): TaskView {
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
