/** POST /admin/lastmile/tasks/:id/retry: book this delivery or return now (after a failure or needs attention). */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { retryTask } from "../../../../../../workflows/book-task/run"
import { toTaskView } from "../../../../../../lib/booking/task-view"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const tasks = TaskRowsService.of(req.scope)
  const before = await tasks.retrieve(req.params.id)
  const outcome = await retryTask(req.scope, before)
  res.json({ outcome, task: toTaskView(await tasks.retrieve(before.id)) })
}
