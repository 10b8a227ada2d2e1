/**
 * GET /admin/lastmile/insights?from=&to=&stock_location_id=&format=: the delivery insights of a period and the one
 * before it (decisions 50 to 53); `format=csv` gives the same figures as CSV.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "@medusajs/framework/zod"
import { insightsCsv } from "../../../../lib/insights/report-csv"
import { insightsReport } from "../../../../lib/insights/medusa/insights-report"
import { OfferCountingService } from "../../../../modules/lastmile/services/offer-counting"
import { PluginSettingsService } from "../../../../modules/lastmile/services/plugin-settings"

const day = (field: string) =>
  z
    .string({ error: `${field} must be an ISO date (2026-11-01), once` })
    .trim()
    .max(40, `${field} must be an ISO date (2026-11-01)`)
    .optional()

const insightsQuerySchema = z
  .object({
    from: day("from"),
    to: day("to"),
    stock_location_id: z
      .string({ error: "stock_location_id must be a stock location id, once" })
      .trim()
      .min(1, "stock_location_id must be a stock location id")
      .max(200, "stock_location_id is not a stock location id")
      .regex(/^[A-Za-z0-9_-]+$/, "stock_location_id is not a stock location id")
      .optional(),
    format: z.enum(["json", "csv"], { error: 'format must be "json" or "csv"' }).default("json"),
  })
  .strict()

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = insightsQuerySchema.safeParse(req.query)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((i) => i.message).join("; "))
  }
  const { format, ...query } = parsed.data
  const { timeZone, co2Unit } = PluginSettingsService.of(req.scope).options.insights
  const counts = OfferCountingService.of(req.scope)
  const report = await insightsReport(req.scope, query, { timeZone, co2Unit, counts })
  res.setHeader("cache-control", "no-store")
  if (format === "csv") {
    res.setHeader("content-type", "text/csv; charset=utf-8")
    res.setHeader(
      "content-disposition",
      `attachment; filename="lastmile-insights-${report.period.from}-to-${report.period.to}.csv"`
    )
    res.send(insightsCsv(report))
    return
  }
  res.json(report)
}
