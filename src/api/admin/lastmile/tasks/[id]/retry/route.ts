/** POST /admin/lastmile/tasks/:id/retry: book this delivery or return now (after a failure or needs attention). */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { retryTask } from "../../../../../../workflows/book-task/retry-task"
import { toTaskView } from "../../../reads/order-tasks"
import { LASTMILE_MODULE } from "../../../../../../modules/lastmile"
import type { LastmileModuleService } from "../../../../../../modules/lastmile/service"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const tasks = req.scope.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const before = await tasks.retrieveLastmileTask(req.params.id)
  const outcome = await retryTask(req.scope, before)
  res.json({ outcome, task: toTaskView(await tasks.retrieveLastmileTask(before.id)) })
}
