/**
 * Delivery insights forwarded to Medusa's Analytics Module when the app has one (decision 54): resolved optionally,
 * a failing provider logged, never thrown.
 */
import type { IAnalyticsModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { errorMessage } from "../../support/error-message"
import type { InsightEvent } from "../insight-events"

/** The app's Analytics Module, or null when it has none. */
export function analyticsModule(container: MedusaContainer): IAnalyticsModuleService | null {
  return container.resolve<IAnalyticsModuleService | undefined>(Modules.ANALYTICS, { allowUnregistered: true }) ?? null
}

/** Tracks each event; resolves to how many were sent (0 without an Analytics Module). Never throws. */
export async function trackInsights(container: MedusaContainer, events: InsightEvent[]): Promise<number> {
  const analytics = analyticsModule(container)
  if (!analytics || !events.length) {
    return 0
  }
  let sent = 0
  for (const event of events) {
    try {
      await analytics.track(event)
      sent++
    } catch (error) {
      container
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(`lastmile: the Analytics Module did not take ${event.event}: ${errorMessage(error)}`)
    }
  }
  return sent
}
