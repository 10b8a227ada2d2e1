/**
 * The demo merchant: the sample store of `scripts/catalog.ts` for the simulator's London locations, and the shipping
 * options the one-click setup makes.
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
  return {
    publishableKey: store.publishableKey,
    regionId: store.regionId,
    setup: setUp ? await setUpLastmileShipping(container) : NOTHING_SET_UP,
  }
}

const NOTHING_SET_UP: SetupReport = { created: [], unchanged: [], skipped: [] }

/** Runs the setup as Settings → Lastmile does; idempotent: everything that exists is left alone. */
async function setUpLastmileShipping(container: MedusaContainer): Promise<SetupReport> {
  const { result } = await setupShippingOptionsWorkflow(container).run({ input: {} })
  return result
}
