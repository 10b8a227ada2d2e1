/** POST /admin/lastmile/setup: one-click creation of the lastmile shipping options (idempotent). */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { setUpLastmileShipping } from "../../../../lib/admin/shipping-setup"
import { errorMessage } from "../../../../lib/lastmile/error-message"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  try {
    res.json(await setUpLastmileShipping(req.scope))
  } catch (error) {
    throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `Lastmile setup stopped: ${errorMessage(error)}`)
  }
}
