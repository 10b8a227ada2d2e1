/**
 * The delivery insights report (ARCHITECTURE.md, decision 51): the period in
 * the store's time zone, the counters written first (so the report includes
 * the last seconds' offers), then two reads (the task rows, the offer
 * counters) and the options' names, computed by `buildInsightsReport`.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { InsightsReport } from "../../../../lib/contracts/insights-api"
import { addDays, startOfDay } from "../../../../lib/insights/calendar"
import { resolvePeriod } from "../../../../lib/insights/period"
import { buildInsightsReport, previousPeriod } from "../../../../lib/insights/report"
import { catalogueStores, readOptionCatalogue } from "../../../../lib/insights/medusa/option-catalogue"
import { OfferCountingService } from "../../../../modules/lastmile/services/offer-counting"
import { PluginSettingsService } from "../../../../modules/lastmile/services/plugin-settings"

export interface InsightsQuery {
  from?: string
  to?: string
  stock_location_id?: string
}

export async function insightsReport(
  container: MedusaContainer,
  query: InsightsQuery,
  now: Date = new Date()
): Promise<InsightsReport> {
  const { timeZone, co2Unit } = PluginSettingsService.of(container).options.insights
  const offers = OfferCountingService.of(container)
  const period = resolvePeriod(query, timeZone, now)
  if (!period.ok) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, period.problem)
  }
  const stockLocationId = query.stock_location_id ?? null
  if (stockLocationId) {
    const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "stock_location",
      fields: ["id"],
      filters: { id: stockLocationId },
    })
    if (!data.length) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Stock location with id: ${stockLocationId} was not found`)
    }
  }
  await offers.flush()
  const before = previousPeriod(period)
  const [tasks, counts, options] = await Promise.all([
    offers.taskRows(startOfDay(before.from, timeZone), startOfDay(addDays(period.to, 1), timeZone)),
    offers.read(before.from, period.to),
    readOptionCatalogue(container),
  ])
  return buildInsightsReport({
    period: { from: period.from, to: period.to },
    timeZone,
    tasks,
    counts,
    options,
    stores: catalogueStores(options),
    stockLocationId,
    co2Unit,
    now,
  })
}
