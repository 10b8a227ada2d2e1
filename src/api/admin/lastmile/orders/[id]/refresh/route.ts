/** POST /admin/lastmile/orders/:id/refresh: re-read the order's booked tasks from the service now. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { assertOrderExists, readTaskViews } from "../../../../../../lib/booking/medusa/read-order"
import { syncTaskStatus } from "../../../../../../workflows/sync-task-status/run"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await assertOrderExists(req.scope, req.params.id)
  const tasks = TaskRowsService.of(req.scope)
  const booked = await tasks.list({ order_id: req.params.id, status: "booked" }, { order: { created_at: "ASC" } })
  const outcomes = []
  for (const task of booked) {
    // Runs syncTaskStatusWorkflow; a failed run comes back as an outcome (ok: false), not an error.
    outcomes.push({ id: task.id, ...(await syncTaskStatus(req.scope, task.id, { source: "admin" })) })
  }
  const rows = await tasks.list({ order_id: req.params.id }, { order: { created_at: "ASC" } })
  res.json({ outcomes, tasks: await readTaskViews(req.scope, rows) })
}
