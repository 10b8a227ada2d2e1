/** POST /admin/lastmile/locations/:id/collection {enabled}: the location's collectionEnabled switch at the service. */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { setLastmileCollectionWorkflow } from "../../../../../../workflows/map-lastmile-locations"
import type { CollectionSwitchResult } from "../../../../../../lib/contracts/admin-api"
import type { CollectionSwitchType } from "../../../validators"
import { answerWorkflowError } from "../../../workflow-error"

export async function POST(req: AuthenticatedMedusaRequest<CollectionSwitchType>, res: MedusaResponse): Promise<void> {
  const { result, errors } = await setLastmileCollectionWorkflow(req.scope).run({
    input: { fulfilment_location_id: req.params.id, enabled: req.validatedBody.enabled },
    throwOnError: false,
  })
  if (errors.length) {
    return answerWorkflowError(res, errors[0], `The service did not change collection for location ${req.params.id}`)
  }
  res.json(result satisfies CollectionSwitchResult)
}
