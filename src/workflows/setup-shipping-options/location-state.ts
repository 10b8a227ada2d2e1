/**
 * What the setup, the location mapping and Settings → Lastmile read: the
 * service's locations, read fresh (and announced with the list, which the
 * provider's held store list adopts), and Medusa's stock locations, read
 * side by side.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { type ServiceFulfilmentLocation, announceStoreListChanged } from "../../lib/service-client"
import type { ResolvedProviderOptions } from "../../lib/options/provider-options"
import type { StockLocationRow } from "../../lib/store/stock-locations"
import { readStockLocations } from "../../lib/store/medusa/read-stock-locations"
import { ServiceConnectionService } from "../../modules/lastmile/services/service-connection"

export interface LocationState {
  remote: ServiceFulfilmentLocation[]
  stock: StockLocationRow[]
  options: ResolvedProviderOptions
}

/** The state as far as it could be read: for a page that shows what it can. */
export interface SettledLocationState {
  /** Empty when the service was not read, or its read failed. */
  remote: ServiceFulfilmentLocation[]
  stock: StockLocationRow[]
  /** Null when the provider is not configured (the service is then not called). */
  options: ResolvedProviderOptions | null
  /** Why the service's locations could not be read; null when they were, or were not asked for. */
  error: Error | null
}

/** Never throws for the service: a failed read is its `error`. */
export async function readLocationStateSettled(container: MedusaContainer): Promise<SettledLocationState> {
  const connection = ServiceConnectionService.of(container).get()
  const readRemote = async (): Promise<{ remote: ServiceFulfilmentLocation[]; error: Error | null }> => {
    if (!connection) {
      return { remote: [], error: null }
    }
    try {
      const remote = await connection.client.listFulfilmentLocations()
      announceStoreListChanged(remote)
      return { remote, error: null }
    } catch (error) {
      return { remote: [], error: error instanceof Error ? error : new Error(String(error)) }
    }
  }
  const [{ remote, error }, stock] = await Promise.all([readRemote(), readStockLocations(container)])
  return { remote, stock, options: connection?.options ?? null, error }
}

/** For what plans from the state: an unconfigured provider is NOT_ALLOWED, and the service's failure is thrown as it came. */
export async function readLocationState(container: MedusaContainer): Promise<LocationState> {
  const { remote, stock, options, error } = await readLocationStateSettled(container)
  if (!options) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The lastmile provider is not configured in medusa-config")
  }
  if (error) {
    throw error
  }
  return { remote, stock, options }
}
