/**
 * What the setup, the mapping and Settings → Lastmile read: the service's locations, fresh (and handed to the store
 * list), beside Medusa's stock locations.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { type LastmileClient, type ServiceFulfilmentLocation, announceStoreListChanged } from "../../service-client"
import type { ResolvedProviderOptions } from "../../options/provider-options"
import type { StockLocationRow } from "../stock-locations"
import type { SettledLocationState } from "../overview"
import { readStockLocations } from "./read-stock-locations"

/** The plugin's connection to the service, or null when the provider is not configured (the service is not called). */
export type LocationConnection = {
  client: Pick<LastmileClient, "listFulfilmentLocations">
  options: ResolvedProviderOptions
} | null

export interface LocationState {
  remote: ServiceFulfilmentLocation[]
  stock: StockLocationRow[]
  options: ResolvedProviderOptions
}

/** Never throws for the service: a failed read is its `error`. */
export async function readLocationStateSettled(
  container: MedusaContainer,
  connection: LocationConnection
): Promise<SettledLocationState> {
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
export async function readLocationState(
  container: MedusaContainer,
  connection: LocationConnection
): Promise<LocationState> {
  const { remote, stock, options, error } = await readLocationStateSettled(container, connection)
  if (!options) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The lastmile provider is not configured in medusa-config")
  }
  if (error) {
    throw error
  }
  return { remote, stock, options }
}
