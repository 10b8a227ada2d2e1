/** POST /admin/lastmile/orders/:id/retry: book the order's delivery now (after a failure or needs_attention). */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { assertOrderExists, readTaskViews } from "../../../../../../lib/booking/medusa/read-order"
import { bookTask } from "../../../../../../workflows/book-task/run"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await assertOrderExists(req.scope, req.params.id)
  // The merchant decided: a needs_attention task is booked again too.
  const outcome = await bookTask(req.scope, { kind: "order", order_id: req.params.id }, { retry_needs_attention: true })
  const rows = await TaskRowsService.of(req.scope).list({ order_id: req.params.id }, { order: { created_at: "ASC" } })
  const tasks = await readTaskViews(req.scope, rows)
  if (outcome.status === "already_booked") {
    const delivery = tasks.find((t) => t.kind === "delivery")
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `This order is already booked as task ${delivery?.task_id}`)
  }
  res.json({ outcome, tasks })
}
