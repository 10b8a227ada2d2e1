/**
 * POST /admin/lastmile/locations/:id/link {stock_location_id} links the service's location :id to a stock location;
 * DELETE unlinks it (decision 27).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import {
  linkLastmileLocationWorkflow,
  unlinkLastmileLocationWorkflow,
} from "../../../../../../workflows/map-lastmile-locations"
import type { LocationMappingResult } from "../../../../../../lib/contracts/admin-api"
import type { LinkLocationType } from "../../../validators"
import { answerWorkflowError } from "../../../workflow-error"

export async function POST(req: AuthenticatedMedusaRequest<LinkLocationType>, res: MedusaResponse): Promise<void> {
  const { result, errors } = await linkLastmileLocationWorkflow(req.scope).run({
    input: { fulfilment_location_id: req.params.id, stock_location_id: req.validatedBody.stock_location_id },
    throwOnError: false,
  })
  if (errors.length) {
    return answerWorkflowError(res, errors[0], `Linking location ${req.params.id} stopped`)
  }
  res.json(result satisfies LocationMappingResult)
}

export async function DELETE(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const { result, errors } = await unlinkLastmileLocationWorkflow(req.scope).run({
    input: { fulfilment_location_id: req.params.id },
    throwOnError: false,
  })
  if (errors.length) {
    return answerWorkflowError(res, errors[0], `Unlinking location ${req.params.id} stopped`)
  }
  res.json(result satisfies LocationMappingResult)
}
