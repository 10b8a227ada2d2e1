/** POST /admin/lastmile/tasks/:id/notice/dismiss: the merchant dealt with the task's notice (an edit after booking). */
import { readTaskViews } from "../../../../../../../lib/booking/medusa/read-order"
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { dismissTaskNoticeWorkflow } from "../../../../../../../workflows/dismiss-task-notice"
import { TaskRowsService } from "../../../../../../../modules/lastmile/services/task-rows"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const tasks = TaskRowsService.of(req.scope)
  const task = await tasks.retrieve(req.params.id)
  await dismissTaskNoticeWorkflow(req.scope).run({
    input: { task_row_id: task.id, actor_id: req.auth_context?.actor_id ?? null },
  })
  res.json({ task: (await readTaskViews(req.scope, [await tasks.retrieve(task.id)]))[0] })
}
