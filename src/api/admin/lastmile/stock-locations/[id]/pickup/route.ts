/**
 * POST /admin/lastmile/stock-locations/:id/pickup {instructions, closed_dates, position}: a store's own words for
 * collecting there, its closed dates and its position, kept on the stock location (decision 65).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { StockLocationPickup } from "../../../../../../lib/contracts/admin-api"
import { setStorePickup } from "../../../../../../workflows/set-store-pickup/run"
import type { StockLocationPickupType } from "../../../validators"

export async function POST(
  req: AuthenticatedMedusaRequest<StockLocationPickupType>,
  res: MedusaResponse
): Promise<void> {
  const result = await setStorePickup(
    req.scope,
    { stock_location_id: req.params.id, ...req.validatedBody },
    req.auth_context?.actor_id ?? null
  )
  const kept: StockLocationPickup = {
    instructions: result.pickup.instructions,
    closed_dates: result.pickup.closed_dates,
    position: result.position,
  }
  res.json(kept)
}
