/**
 * POST /admin/lastmile/tasks/:id/hand-over {code} or {override_reason}: the store hands a collection over (decision
 * 65). A wrong code is a 400, five in 15 minutes a 429 until the window moves on.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { readTaskViews } from "../../../../../../lib/booking/medusa/read-order"
import { handOverCollection } from "../../../../../../workflows/hand-over-collection/run"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"
import type { HandOverType } from "../../../validators"

export async function POST(req: AuthenticatedMedusaRequest<HandOverType>, res: MedusaResponse): Promise<void> {
  const tasks = TaskRowsService.of(req.scope)
  await tasks.retrieve(req.params.id)
  const decision = await handOverCollection(
    req.scope,
    req.params.id,
    req.validatedBody,
    req.auth_context?.actor_id ?? null
  )
  if (!decision.ok) {
    if (decision.refusal === "locked") {
      const seconds = Math.max(1, Math.ceil((Date.parse(decision.retry_at) - Date.now()) / 1000))
      res.setHeader("Retry-After", String(seconds))
      res.status(429).json({ type: "too_many_attempts", message: decision.message, retry_at: decision.retry_at })
      return
    }
    if (decision.refusal === "wrong_code") {
      res.status(400).json({ type: "invalid_data", message: decision.message, attempts_left: decision.attempts_left })
      return
    }
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, decision.message)
  }
  res.json({ task: (await readTaskViews(req.scope, [await tasks.retrieve(req.params.id)]))[0] })
}
