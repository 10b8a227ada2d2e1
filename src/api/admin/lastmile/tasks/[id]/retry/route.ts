/** POST /admin/lastmile/tasks/:id/retry: book this delivery or return now (after a failure or needs attention). */
import { readTaskViews } from "../../../../../../lib/booking/medusa/read-order"
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { retryTask } from "../../../../../../workflows/book-task/run"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const tasks = TaskRowsService.of(req.scope)
  const before = await tasks.retrieve(req.params.id)
  const outcome = await retryTask(req.scope, before)
  res.json({ outcome, task: (await readTaskViews(req.scope, [await tasks.retrieve(before.id)]))[0] })
}
