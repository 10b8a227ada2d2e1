/** The lastmile tasks of an order (its delivery and returns) as the order widget shows them. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import type { TaskHistoryEntry, TaskView } from "../lastmile/admin-api"

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

export async function orderTasks(container: MedusaContainer, orderId: string): Promise<TaskView[]> {
  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const tasks = await module.listLastmileTasks({ order_id: orderId }, { order: { created_at: "ASC" } })
  return tasks.map((t) => ({
    id: t.id,
    kind: t.kind,
    status: t.status,
    task_id: t.task_id,
    tracking_id: t.tracking_id,
    tracking_url: t.tracking_url,
    rate_code: t.rate_code,
    delivery_type: t.delivery_type,
    merchant_location_id: t.merchant_location_id,
    service_status: t.service_status,
    tracking_state: t.tracking_state,
    unmapped_status: t.unmapped_status,
    attempts: t.attempts,
    last_error: t.last_error,
    next_attempt_at: iso(t.next_attempt_at),
    booked_at: iso(t.booked_at),
    last_checked_at: iso(t.last_checked_at),
    return_id: t.return_id,
    history: (t.status_history as { entries?: TaskHistoryEntry[] } | null)?.entries ?? [],
  }))
}
