/**
 * GET /admin/lastmile/stock-locations/:id: that store's location at the service, its collection state, and what it
 * tells shoppers who collect there (decision 65).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { stockLocationLastmileView } from "../../../../../lib/store/overview"
import { readLocationStateSettled } from "../../../../../lib/store/medusa/read-location-state"
import { readStorePickup } from "../../../../../lib/collection/medusa/read-store-pickup"
import { ServiceConnectionService } from "../../../../../modules/lastmile/services/service-connection"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const [state, store] = await Promise.all([
    readLocationStateSettled(req.scope, ServiceConnectionService.of(req.scope).get()),
    readStorePickup(req.scope, req.params.id),
  ])
  const pickup = store ? { ...store.pickup, position: store.position } : undefined
  res.json({ ...stockLocationLastmileView(state, req.params.id), ...(pickup ? { pickup } : {}) })
}
