/**
 * POST /admin/lastmile/tasks/:id/cancel {confirm: true}: cancel Medusa's side
 * of a booked task although the service has not reported it cancelled (the
 * courier confirmed it by other means). The task is read again first, and
 * who cancelled it is recorded. The task at the service is untouched: the
 * service has no cancel operation.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cancelTaskAnyway } from "../../../../../../workflows/cancel-lastmile-fulfillment/run"
import { toTaskView } from "../../../../../../lib/booking/task-view"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"
import type { CancelTaskType } from "../../../validators"

export async function POST(req: AuthenticatedMedusaRequest<CancelTaskType>, res: MedusaResponse): Promise<void> {
  const cancelled = await cancelTaskAnyway(req.scope, req.params.id, req.auth_context?.actor_id ?? null)
  const task = await TaskRowsService.of(req.scope).retrieve(req.params.id)
  res.json({ cancelled, task: toTaskView(task) })
}
