/** GET /admin/lastmile/stock-locations/:id: that store's location at the service and its collection state. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { StockLocationLastmileView } from "../../../../../lib/lastmile/admin-api"
import { lastmileOverview } from "../../../../../lib/admin/lastmile-overview"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const overview = await lastmileOverview(req.scope)
  const location = overview.locations.find((l) => l.stock_location?.id === req.params.id) ?? null
  const view: StockLocationLastmileView = {
    connected: overview.connection.ok,
    message: overview.connection.ok ? null : overview.connection.message,
    location,
    is_dispatch: overview.dispatch_location?.id === req.params.id,
  }
  res.json(view)
}
