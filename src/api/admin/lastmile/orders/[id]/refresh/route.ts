/** POST /admin/lastmile/orders/:id/refresh: re-read the order's booked tasks from the service now. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderTasks } from "../../../reads/order-tasks"
import { assertOrderExists } from "../../../reads/order-exists"
import { syncTaskStatus } from "../../../../../../workflows/sync-task-status/run"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  await assertOrderExists(req.scope, req.params.id)
  const booked = (await orderTasks(req.scope, req.params.id)).filter((t) => t.status === "booked")
  const outcomes = []
  for (const task of booked) {
    // Runs syncTaskStatusWorkflow; a failed run comes back as an outcome (ok: false), not an error.
    outcomes.push({ id: task.id, ...(await syncTaskStatus(req.scope, task.id, { source: "admin" })) })
  }
  res.json({ outcomes, tasks: await orderTasks(req.scope, req.params.id) })
}
