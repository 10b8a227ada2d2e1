/**
 * POST /admin/lastmile/tasks/:id/cancel {confirm: true, reason?: "not_collected"}: the merchant cancels Medusa's side
 * of a booked task the service has not reported cancelled; read again first and recorded (decisions 6 and 65).
 */
import { readTaskViews } from "../../../../../../lib/booking/medusa/read-order"
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { cancelTaskAnyway } from "../../../../../../workflows/cancel-lastmile-fulfillment/run"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"
import type { CancelTaskType } from "../../../validators"

export async function POST(req: AuthenticatedMedusaRequest<CancelTaskType>, res: MedusaResponse): Promise<void> {
  const cancelled = await cancelTaskAnyway(req.scope, req.params.id, req.auth_context?.actor_id ?? null, {
    reason: req.validatedBody.reason,
  })
  const task = await TaskRowsService.of(req.scope).retrieve(req.params.id)
  res.json({ cancelled, task: (await readTaskViews(req.scope, [task]))[0] })
}
