/** GET /admin/lastmile/orders/:id: the order's lastmile tasks, oldest first, with status history and errors. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { assertOrderExists, readTaskViews } from "../../../../../lib/booking/medusa/read-order"
import { TaskRowsService } from "../../../../../modules/lastmile/services/task-rows"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await assertOrderExists(req.scope, req.params.id)
  const tasks = await TaskRowsService.of(req.scope).list({ order_id: req.params.id }, { order: { created_at: "ASC" } })
  res.json({ tasks: await readTaskViews(req.scope, tasks) })
}
