/** Daily: removes offer counters older than the plugin's `insights.offer_retention_days`. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { OfferCountingService } from "../modules/lastmile/services/offer-counting"
import { PluginSettingsService } from "../modules/lastmile/services/plugin-settings"

export default async function lastmileInsightsRetention(container: MedusaContainer): Promise<void> {
  const retention = PluginSettingsService.of(container).options.insights.offerRetentionDays
  const removed = await OfferCountingService.of(container).prune(retention)
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
