/**
 * POST /admin/lastmile/setup {return_location_id?, sales_channel_ids?}: one-click creation of the shipping options,
 * the return option and the sales channels' links (decision 28; idempotent, undone whole on failure).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { setupShippingOptionsWorkflow } from "../../../../workflows/setup-shipping-options"
import type { SetupReport } from "../../../../lib/contracts/admin-api"
import type { SetupShippingType } from "../validators"
import { answerWorkflowError } from "../workflow-error"

export async function POST(req: AuthenticatedMedusaRequest<SetupShippingType>, res: MedusaResponse): Promise<void> {
  const { result, errors } = await setupShippingOptionsWorkflow(req.scope).run({
    input: req.validatedBody ?? {},
    throwOnError: false,
  })
  if (errors.length) {
    // The run was undone: nothing half-made is left.
    return answerWorkflowError(res, errors[0], "Lastmile setup stopped")
  }
  res.json(result satisfies SetupReport)
}
