/**
 * The demo merchant: the sample store of `scripts/catalog.ts` for the simulator's London locations, each store's
 * position (for the nearest stores: decision 66), and the shipping options the one-click setup makes.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { setupShippingOptionsWorkflow } from "../src/workflows/setup-shipping-options"
import type { SetupReport } from "../src/lib/contracts/admin-api"
import { type MerchantLocation, seedMerchantStore } from "../scripts/catalog"

export interface DemoStore {
  publishableKey: string
  regionId: string
  setup: SetupReport
}

/**
 * The service's store the merchant has no stock location for yet, when the
 * demo leaves the set-up to the dashboard: Settings → Lastmile creates it.
 */
export const DEMO_STORE_TO_CREATE = "store-camden"

/**
 * Where the demo's stores are (their streets' positions, to 4 decimals), kept as their stock locations'
 * `metadata.latitude`/`longitude`, as the location widget's pickup section keeps a merchant's: with the shopper's
 * position ("Use my location"), the checkout lists the stores nearest first with their distance. Camden's stock
 * location, when Settings → Lastmile creates it, has none until the merchant sets it.
 */
export const DEMO_STORE_POSITIONS: Record<string, { latitude: number; longitude: number }> = {
  "store-covent-garden": { latitude: 51.5124, longitude: -0.1255 },
  "store-shoreditch": { latitude: 51.5246, longitude: -0.0806 },
  "store-camden": { latitude: 51.5405, longitude: -0.1445 },
  "store-brixton": { latitude: 51.4618, longitude: -0.1138 },
  "store-islington": { latitude: 51.5381, longitude: -0.1025 },
  "store-greenwich": { latitude: 51.4811, longitude: -0.0093 },
  "store-hammersmith": { latitude: 51.4924, longitude: -0.2275 },
  "store-stratford": { latitude: 51.5413, longitude: -0.0025 },
  "store-richmond": { latitude: 51.4613, longitude: -0.3037 },
  "store-clapham": { latitude: 51.4645, longitude: -0.1318 },
}

/**
 * `setUp: false` seeds the store as a merchant has it before the plugin's
 * set-up: stock locations for the service's warehouse and stores but one,
 * unmapped and in no sales channel, and no lastmile shipping option; the
 * mapping, the setup and the channels are then done in Settings → Lastmile.
 */
export async function seedDemoStore(
  container: MedusaContainer,
  locations: MerchantLocation[],
  { setUp }: { setUp: boolean }
): Promise<DemoStore> {
  const existing = await container.resolve(Modules.API_KEY).listApiKeys({ title: "Webshop", type: "publishable" })
  if (existing.length) {
    // Seeded before (a persistent demo database): only the idempotent setup runs again.
    const [region] = await container.resolve(Modules.REGION).listRegions({ currency_code: "gbp" })
    return {
      publishableKey: existing[0].token,
      regionId: region.id,
      setup: setUp ? await setUpLastmileShipping(container) : NOTHING_SET_UP,
    }
  }
  const store = setUp
    ? await seedMerchantStore(container, locations)
    : await seedMerchantStore(
        container,
        locations.filter((l) => l.externalLocationId !== DEMO_STORE_TO_CREATE),
        undefined,
        { mapped: false }
      )
  await placeStores(container, store.locations)
  return {
    publishableKey: store.publishableKey,
    regionId: store.regionId,
    setup: setUp ? await setUpLastmileShipping(container) : NOTHING_SET_UP,
  }
}

/** Each seeded store's position on its stock location (stock location id by the service's external id). */
async function placeStores(container: MedusaContainer, locations: Record<string, string>): Promise<void> {
  const stockLocations = container.resolve(Modules.STOCK_LOCATION)
  for (const [externalId, id] of Object.entries(locations)) {
    const position = DEMO_STORE_POSITIONS[externalId]
    if (position) {
      await stockLocations.updateStockLocations(id, { metadata: { ...position } })
    }
  }
}

const NOTHING_SET_UP: SetupReport = { created: [], unchanged: [], skipped: [] }

/** Runs the setup as Settings → Lastmile does; idempotent: everything that exists is left alone. */
async function setUpLastmileShipping(container: MedusaContainer): Promise<SetupReport> {
  const { result } = await setupShippingOptionsWorkflow(container).run({ input: {} })
  return result
}
