/** The London merchant of the simulator, seeded into the test app, with the simulator reset before each test. */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { AxiosInstance } from "axios"
import {
  type LastmileSimulator,
  type SimLocation,
  alwaysOpenHours,
  londonLocations,
} from "../../packages/simulator/src"
import { MUG_SKU, type SeededStore, TEE_SKU, seedFromSimulatorLocations } from "./seed-store"
import { Storefront } from "./storefront"

/** A warehouse and ten stores, open around the clock so no test depends on the time of day. */
export const londonTestLocations = (): SimLocation[] =>
  londonLocations([TEE_SKU, MUG_SKU]).map((l) => ({ ...l, operatingHours: alwaysOpenHours() }))

export function useLondonStore(
  simulator: LastmileSimulator,
  app: { api: AxiosInstance; getContainer: () => MedusaContainer }
): { seed: SeededStore; shop: Storefront } {
  const store = {} as { seed: SeededStore; shop: Storefront }
  beforeAll(async () => {
    store.seed = await seedFromSimulatorLocations(app.getContainer(), londonTestLocations())
    store.shop = new Storefront(app.api, store.seed.publishableKey)
  })
  beforeEach(() => {
    simulator.clearFaults()
    simulator.setLocations(londonTestLocations())
    simulator.clearRequests()
  })
  return store
}
