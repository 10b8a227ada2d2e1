/**
 * What the location widget shows for one stock location: whether the service answers, the service location it is
 * linked to, and whether deliveries leave from it; only that location's view is built.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { dispatchLocationOf, stockByExternalId } from "../../../../lib/store/stock-locations"
import { readLocationStateSettled } from "../../../../workflows/setup-shipping-options/location-state"
import type { StockLocationLastmileView } from "../../../../lib/contracts/admin-api"
import { connectionStatus, locationView } from "./overview"

export async function stockLocationLastmileView(
  container: MedusaContainer,
  stockLocationId: string
): Promise<StockLocationLastmileView> {
  const state = await readLocationStateSettled(container)
  const status = connectionStatus(state)
  if (!state.options) {
    return { connected: false, message: status.message, location: null, is_dispatch: false }
  }
  const byExternal = stockByExternalId(state.stock)
  const linked = state.remote.find(
    (l) => !!l.externalLocationId && byExternal.get(l.externalLocationId)?.id === stockLocationId
  )
  return {
    connected: status.ok,
    message: status.ok ? null : status.message,
    location: linked ? locationView(linked, byExternal) : null,
    is_dispatch: dispatchLocationOf(state.remote, state.stock)?.location.id === stockLocationId,
  }
}
