/** GET /admin/lastmile/orders/:id: the order's lastmile tasks, oldest first, and the shopper's note to the courier. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { OrderTasksResponse } from "../../../../../lib/contracts/admin-api"
import { assertOrderExists, readDeliveryNoteView, readTaskViews } from "../../../../../lib/booking/medusa/read-order"
import { ServiceConnectionService } from "../../../../../modules/lastmile/services/service-connection"
import { TaskRowsService } from "../../../../../modules/lastmile/services/task-rows"

export async function GET(req: MedusaRequest, res: MedusaResponse<OrderTasksResponse>): Promise<void> {
  await assertOrderExists(req.scope, req.params.id)
  const tasks = await TaskRowsService.of(req.scope).list({ order_id: req.params.id }, { order: { created_at: "ASC" } })
  const sending = ServiceConnectionService.of(req.scope).get()?.options.sendDeliveryNote ?? false
  const [views, note] = await Promise.all([
    readTaskViews(req.scope, tasks),
    readDeliveryNoteView(req.scope, req.params.id, tasks, sending),
  ])
  res.json({ tasks: views, delivery_note: note })
}
