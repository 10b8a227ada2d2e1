/**
 * The delivery insights report (decision 51): the counters written first, then the task rows, the offer counters and
 * the options' names read, computed by `buildInsightsReport`.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { InsightsReport } from "../../contracts/insights-api"
import { addDays, startOfDay } from "../calendar"
import { resolvePeriod } from "../period"
import { type OfferCountRow, buildInsightsReport, previousPeriod } from "../report"
import type { InsightTaskRow } from "../task-facts"
import { catalogueStores, readOptionCatalogue } from "./option-catalogue"

/** What the report reads of the plugin's module (its `OfferCountingService`). */
export interface InsightCounts {
  /** Writes the counters still in memory. */
  flush(): Promise<unknown>
  /** The counters of the days from `from` to `to`, both included. */
  read(from: string, to: string): Promise<OfferCountRow[]>
  /** The task rows that may count in `[from, to)`. */
  taskRows(from: Date, to: Date): Promise<InsightTaskRow[]>
}

export interface InsightsQuery {
  from?: string
  to?: string
  stock_location_id?: string
}

export async function insightsReport(
  container: MedusaContainer,
  query: InsightsQuery,
  { timeZone, co2Unit, counts: offers }: { timeZone: string; co2Unit: "kg" | "g"; counts: InsightCounts },
  now: Date = new Date()
): Promise<InsightsReport> {
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
