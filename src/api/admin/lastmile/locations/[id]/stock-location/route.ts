/**
 * POST /admin/lastmile/locations/:id/stock-location: create a Medusa stock
 * location from the service's location :id (its name and address) and link it.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { createLastmileStockLocationWorkflow } from "../../../../../../workflows/map-lastmile-locations"
import type { LocationMappingResult } from "../../../../../../lib/contracts/admin-api"
import { answerWorkflowError } from "../../../workflow-error"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const { result, errors } = await createLastmileStockLocationWorkflow(req.scope).run({
    input: { fulfilment_location_id: req.params.id },
    throwOnError: false,
  })
  if (errors.length) {
    return answerWorkflowError(res, errors[0], `Creating a stock location for location ${req.params.id} stopped`)
  }
  res.json(result satisfies LocationMappingResult)
}
