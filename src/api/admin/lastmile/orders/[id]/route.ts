/** GET /admin/lastmile/orders/:id: the order's lastmile tasks, with status history and errors. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderTasks } from "../../reads/order-tasks"
import { assertOrderExists } from "../../reads/order-exists"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await assertOrderExists(req.scope, req.params.id)
  res.json({ tasks: await orderTasks(req.scope, req.params.id) })
}
