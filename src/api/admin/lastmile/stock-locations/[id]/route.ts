/** GET /admin/lastmile/stock-locations/:id: that store's location at the service and its collection state. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { stockLocationLastmileView } from "../../../../../lib/store/overview"
import { readLocationStateSettled } from "../../../../../lib/store/medusa/read-location-state"
import { ServiceConnectionService } from "../../../../../modules/lastmile/services/service-connection"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const state = await readLocationStateSettled(req.scope, ServiceConnectionService.of(req.scope).get())
  res.json(stockLocationLastmileView(state, req.params.id))
}
