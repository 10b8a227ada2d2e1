/** POST /admin/lastmile/tasks/:id/extend {days}: a ready collection held for more open days, its shopper told (decision 65). */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readTaskViews } from "../../../../../../lib/booking/medusa/read-order"
import { extendCollection } from "../../../../../../workflows/extend-collection/run"
import { TaskRowsService } from "../../../../../../modules/lastmile/services/task-rows"
import type { ExtendCollectionType } from "../../../validators"

export async function POST(req: AuthenticatedMedusaRequest<ExtendCollectionType>, res: MedusaResponse): Promise<void> {
  const tasks = TaskRowsService.of(req.scope)
  await tasks.retrieve(req.params.id)
  await extendCollection(req.scope, req.params.id, req.validatedBody.days, req.auth_context?.actor_id ?? null)
  res.json({ task: (await readTaskViews(req.scope, [await tasks.retrieve(req.params.id)]))[0] })
}
