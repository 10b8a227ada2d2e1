/** Run by `npm run demo` through `medusa exec`: seeds the demo store into the app's database. */
import { writeFileSync } from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { seedDemoStore } from "./store"
import { londonLocations } from "../packages/simulator/src"
import { DEMO_SKUS, demoSetsUpInDashboard, demoStock } from "./settings"

export default async function seedDemo({ container }: ExecArgs): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const setUp = !demoSetsUpInDashboard()
  const store = await seedDemoStore(container, londonLocations(DEMO_SKUS, demoStock), { setUp })
  logger.info(
    setUp
      ? `demo: setup created ${store.setup.created.length} item(s), ${store.setup.unchanged.length} unchanged`
      : "demo: nothing of lastmile's is set up: Settings → Lastmile does it"
  )
  const out = process.env.LASTMILE_DEMO_SEED_OUT
  if (out) {
    writeFileSync(out, JSON.stringify({ publishableKey: store.publishableKey, regionId: store.regionId }))
  }
}
