/** GET /admin/lastmile/stock-locations/:id: that store's location at the service and its collection state. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { stockLocationLastmileView } from "../../reads/stock-location"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.json(await stockLocationLastmileView(req.scope, req.params.id))
}
