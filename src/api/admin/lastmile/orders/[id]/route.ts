/** GET /admin/lastmile/orders/:id: the order's lastmile tasks, with status history and errors. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderTasks } from "../../../../../lib/admin/order-tasks"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.json({ tasks: await orderTasks(req.scope, req.params.id) })
}
