/**
 * The insights report as CSV: a row per figure with the previous period's beside it; formulas escaped, and any cell
 * holding a separator of any locale's CSV quoted.
 */
import type { InsightsFigures, InsightsReport } from "../contracts/insights-api"

export const CSV_COLUMNS = [
  "section",
  "metric",
  "week",
  "option_id",
  "option_name",
  "stock_location_id",
  "stock_location_name",
  "reason",
  "value",
  "previous_value",
] as const

type Row = Partial<Record<(typeof CSV_COLUMNS)[number], string | number | null>>

/**
 * A cell as CSV: text starting like a formula (`= + - @`, a tab or a carriage return) is made plain text, and a
 * cell holding a comma, a semicolon, a tab, a quote or a line break is quoted. Excel in a `;`-separator locale
 * (de, fr, nl, es, it) reads this comma-separated file split at `;`, where a quote mid-field quotes nothing, so a
 * formula's start right after a `;` or a tab inside a cell is made plain text too.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) {
    return ""
  }
  if (typeof value === "number") {
    return Number.isFinite(value) ? String(value) : ""
  }
  const text = (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value).replace(/([;\t]\s*)(?=[=+\-@])/g, "$1'")
  return /[",;\t\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

function scalarRows(current: InsightsFigures, previous: InsightsFigures): Row[] {
  const pair = (section: string, metric: string, read: (f: InsightsFigures) => number | null): Row => ({
    section,
    metric,
    value: read(current),
    previous_value: read(previous),
  })
  const delivery = (k: keyof InsightsFigures["deliveries"]) => pair("deliveries", k, (f) => f.deliveries[k])
  const collection = (k: keyof InsightsFigures["collections"]) => pair("collections", k, (f) => f.collections[k])
  return [
    pair("offers", "carts", (f) => f.offers.carts),
    delivery("booked"),
    delivery("delivered"),
    delivery("early"),
    delivery("on_time"),
    delivery("late"),
    delivery("no_window"),
    delivery("late_minutes_p50"),
    collection("booked"),
    collection("ready_on_time"),
    collection("ready_late"),
    collection("no_window"),
    collection("collected"),
    collection("not_collected"),
    pair("co2", "co2_saved_kg", (f) => f.co2_saved_kg),
    pair("booking", "placed_to_booked_ms_p50", (f) => f.booking.placed_to_booked_ms.p50),
    pair("booking", "placed_to_booked_ms_p95", (f) => f.booking.placed_to_booked_ms.p95),
    pair("booking", "failed", (f) => f.booking.failed),
    pair("booking", "needs_attention", (f) => f.booking.needs_attention),
    pair("tracking", "webhook_share", (f) => f.webhook_share),
    pair("tracking", "moves_webhook", (f) => f.status_moves.webhook),
    pair("tracking", "moves_poll", (f) => f.status_moves.poll),
    pair("tracking", "moves_admin", (f) => f.status_moves.admin),
  ]
}

function optionRows(current: InsightsFigures, previous: InsightsFigures): Row[] {
  const key = (r: { fulfillment_option: string; stock_location_id: string | null }) =>
    `${r.fulfillment_option}\u0000${r.stock_location_id ?? ""}`
  const before = new Map(previous.offers.by_option.map((r) => [key(r), r]))
  return current.offers.by_option.flatMap((row) => {
    const prior = before.get(key(row))
    const base = {
      section: "offers",
      option_id: row.option_id,
      option_name: row.name,
      stock_location_id: row.stock_location_id,
      stock_location_name: row.stock_location_name,
    }
    const reasons = [...new Set([...Object.keys(row.unavailable), ...Object.keys(prior?.unavailable ?? {})])].sort()
    return [
      { ...base, metric: "offered", value: row.offered, previous_value: prior?.offered ?? 0 },
      { ...base, metric: "chosen", value: row.chosen, previous_value: prior?.chosen ?? 0 },
      ...reasons.map((reason) => ({
        ...base,
        metric: "unavailable",
        reason,
        value: row.unavailable[reason] ?? 0,
        previous_value: prior?.unavailable[reason] ?? 0,
      })),
    ]
  })
}

export function insightsCsv(report: InsightsReport): string {
  const before = new Map(report.previous.booking.failure_reasons.map((r) => [r.reason, r.count]))
  const rows: Row[] = [
    { section: "period", metric: "from", value: report.period.from, previous_value: report.previous.period.from },
    { section: "period", metric: "to", value: report.period.to, previous_value: report.previous.period.to },
    { section: "period", metric: "time_zone", value: report.period.time_zone },
    ...(report.stock_location_id
      ? [{ section: "period", metric: "store", stock_location_id: report.stock_location_id }]
      : []),
    ...scalarRows(report, report.previous),
    ...optionRows(report, report.previous),
    ...report.booking.failure_reasons.map((r) => ({
      section: "booking",
      metric: "failure_reason",
      reason: r.reason,
      value: r.count,
      previous_value: before.get(r.reason) ?? 0,
    })),
    ...report.weeks.flatMap((w) =>
      (
        [
          "early",
          "on_time",
          "late",
          "no_window",
          "co2_saved_kg",
          "booked",
          "placed_to_booked_p50_ms",
          "failed",
        ] as const
      ).map((metric) => ({ section: "weeks", metric, week: w.week, value: w[metric] }))
    ),
  ]
  const lines = [CSV_COLUMNS.join(","), ...rows.map((row) => CSV_COLUMNS.map((c) => csvCell(row[c])).join(","))]
  return `${lines.join("\r\n")}\r\n`
}
