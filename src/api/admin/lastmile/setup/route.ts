/** POST /admin/lastmile/setup: one-click creation of the lastmile shipping options (idempotent). */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { setupShippingOptionsWorkflow } from "../../../../workflows/setup-shipping-options"
import { errorMessage } from "../../../../lib/lastmile/error-message"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const { result, errors } = await setupShippingOptionsWorkflow(req.scope).run({ input: {}, throwOnError: false })
  if (errors.length) {
    // The run was undone: nothing half-made is left.
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Lastmile setup stopped: ${errorMessage(errors[0].error)}`
    )
  }
  res.json(result)
}
