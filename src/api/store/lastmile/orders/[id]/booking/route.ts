/**
 * GET /store/lastmile/orders/:id/booking: where the order's own delivery's booking stands, its step, a ready
 * collection's collect-by and code (decisions 35, 55 and 65); keyed, like the store's order, by the order id.
 */
import type { LastmileBookingState, LastmileOrderBookingResponse } from "medusa-plugin-lastmile-storefront"
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { assertOrderExists } from "../../../../../../lib/booking/medusa/read-order"
import { shopperStepOf, taskModeOf } from "../../../../../../lib/notifications/due-notifications"
import { PluginSettingsService } from "../../../../../../modules/lastmile/services/plugin-settings"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"
import type { LastmileTaskRow } from "../../../../../../modules/lastmile/types"
import { readShopperCollection } from "../../../../../../lib/collection/medusa/read-store-pickup"

const STATE: Record<LastmileTaskRow["status"], LastmileBookingState> = {
  pending: "booking",
  booking: "booking",
  failed: "retrying",
  needs_attention: "needs_attention",
  booked: "booked",
  cancelled: "cancelled",
}

/** What the state and the step are read from (`NotifiableTask`, and what a task's mode is found from). */
const STEP_FIELDS = [
  "id",
  "status",
  "mode",
  "kind",
  "rate_code",
  "attempts",
  "booked_at",
  "tracking_state",
  "service_status",
  "status_history",
  "cancellation",
  "collection",
  "stock_location_id",
] as const

export async function GET(req: MedusaRequest, res: MedusaResponse<LastmileOrderBookingResponse>): Promise<void> {
  const orderId = req.params.id
  await assertOrderExists(req.scope, orderId)
  // The order's own delivery is the task whose reference is the order id (replacements and returns have their own).
  const [task] = await TaskRowsService.of(req.scope).list(
    { merchant_order_id: orderId },
    { select: [...STEP_FIELDS], take: 1 }
  )
  const options = PluginSettingsService.of(req.scope).options
  const now = new Date()
  const mode = task ? taskModeOf(task) : null
  res.json({
    order_id: orderId,
    booking: {
      state: task ? STATE[task.status] : "not_started",
      books_on: options.bookingTrigger,
      step: task && mode ? shopperStepOf({ ...task, mode }, options.notifications.statusEvents, now) : null,
      ...(task && mode === "collection" ? { collection: await readShopperCollection(req.scope, task, now) } : {}),
    },
  })
}
