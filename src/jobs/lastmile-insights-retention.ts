/** Daily: removes offer counters older than the plugin's `insights.offer_retention_days`. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../modules/lastmile"
import type { LastmileModuleService } from "../modules/lastmile/service"

export default async function lastmileInsightsRetention(container: MedusaContainer): Promise<void> {
  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const removed = await module.offerCounts.prune(module.getPluginOptions().insights.offerRetentionDays)
  if (removed) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(`lastmile: removed ${removed} offer counter(s) past retention`)
  }
}

export const config = {
  name: "lastmile-insights-retention",
  schedule: "17 3 * * *",
}
