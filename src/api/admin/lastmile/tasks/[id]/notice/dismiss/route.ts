/** POST /admin/lastmile/tasks/:id/notice/dismiss: the merchant dealt with the task's notice (an edit after booking). */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { dismissTaskNoticeWorkflow } from "../../../../../../../workflows/dismiss-task-notice"
import { toTaskView } from "../../../../reads/order-tasks"
import { LASTMILE_MODULE } from "../../../../../../../modules/lastmile"
import type { LastmileModuleService } from "../../../../../../../modules/lastmile/service"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const tasks = req.scope.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const task = await tasks.retrieveLastmileTask(req.params.id)
  await dismissTaskNoticeWorkflow(req.scope).run({
    input: { task_row_id: task.id, actor_id: req.auth_context?.actor_id ?? null },
  })
  res.json({ task: toTaskView(await tasks.retrieveLastmileTask(task.id)) })
}
