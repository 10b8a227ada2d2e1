/**
 * POST /admin/lastmile/stock-locations/:id/pickup {instructions, closed_dates, position}: a store's own words for
 * collecting there, its closed dates and its position, kept on the stock location (decision 65).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { StockLocationPickup } from "../../../../../../lib/contracts/admin-api"
import { setStorePickupWorkflow } from "../../../../../../workflows/set-store-pickup"
import type { StockLocationPickupType } from "../../../validators"
import { answerWorkflowError } from "../../../workflow-error"

export async function POST(req: MedusaRequest<StockLocationPickupType>, res: MedusaResponse): Promise<void> {
  const { result, errors } = await setStorePickupWorkflow(req.scope).run({
    input: { stock_location_id: req.params.id, ...req.validatedBody },
    throwOnError: false,
  })
  if (errors.length) {
    answerWorkflowError(res, errors[0], "The store's pickup settings were not saved")
    return
  }
  const kept: StockLocationPickup = {
    instructions: result.pickup.instructions,
    closed_dates: result.pickup.closed_dates,
    position: result.position,
  }
  res.json(kept)
}
