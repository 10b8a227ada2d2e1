/**
 * A store as a merchant has it just after installing the plugin (see
 * scripts/catalog.ts), and the steps tests take from there.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { type BareStore, type MerchantLocation, addMerchantLocations, stockAtLocations } from "../../scripts/catalog"

export { type BareStore, seedBareStore } from "../../scripts/catalog"

/**
 * Stock locations already mapped to the service's locations (as a merchant
 * who followed the old curl steps has them), in the Webshop channel, 100 of
 * everything in stock. Returns the stock location id by external id.
 */
export function addMappedLocations(
  container: MedusaContainer,
  store: BareStore,
  locations: MerchantLocation[]
): Promise<Record<string, string>> {
  return addMerchantLocations(container, store, locations, { units: 100 })
}

/** Every product in stock at these stock locations (Medusa reserves from them when an order is placed). */
export function stockUp(container: MedusaContainer, locationIds: string[], units = 100): Promise<void> {
  return stockAtLocations(container, locationIds, () => units)
}
