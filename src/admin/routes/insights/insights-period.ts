/**
 * The period picker's presets, as days in the store's time zone (the last report's; the browser's until then), and the
 * words figures are shown in.
 */

export type PresetId = "7" | "30" | "90" | "this_month" | "last_month" | "custom"

export const PRESETS: { id: PresetId; label: string }[] = [
  { id: "7", label: "Last 7 days" },
  { id: "30", label: "Last 30 days" },
  { id: "90", label: "Last 90 days" },
  { id: "this_month", label: "This month" },
  { id: "last_month", label: "Last month" },
  { id: "custom", label: "Custom" },
]

function today(timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
      new Date()
    )
  } catch {
    return new Date().toISOString().slice(0, 10)
  }
}

function shift(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/** The days of a preset; a custom period is the merchant's own. */
export function presetPeriod(id: Exclude<PresetId, "custom">, timeZone?: string): { from: string; to: string } {
  const end = today(timeZone)
  switch (id) {
    case "this_month":
      return { from: `${end.slice(0, 8)}01`, to: end }
    case "last_month": {
      const last = shift(`${end.slice(0, 8)}01`, -1)
      return { from: `${last.slice(0, 8)}01`, to: last }
    }
    default:
      return { from: shift(end, -(Number(id) - 1)), to: end }
  }
}

/** Why an option was not offered, in the merchant's words (codes as the rates route gives them). */
export const REASON_WORDS: Record<string, string> = {
  input_incomplete: "Shopper's details incomplete",
  route_not_served: "Address not served",
  rate_missing: "Not in the quote (no stock, or collection off)",
  rate_error: "Refused by the service",
  store_ambiguous: "Store not identifiable in the quote",
  store_not_mapped: "Store not linked",
  service_unavailable: "Service unavailable",
  service_refused: "Service refused the quote",
  currency_mismatch: "Priced in another currency",
  invalid_price: "No usable price",
  rate_code_invalid: "Rate asked for is not valid",
  not_priced: "Not priced",
}

export function reasonWords(code: string): string {
  return REASON_WORDS[code] ?? code.replace(/_/g, " ")
}

export function formatDuration(ms: number | null): string {
  if (ms === null) {
    return "–"
  }
  return ms < 1000
    ? `${Math.round(ms)} ms`
    : ms < 120_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${Math.round(ms / 60_000)} min`
}

export function formatShare(share: number | null): string {
  return share === null ? "–" : `${Math.round(share * 100)}%`
}

/** The change from the previous period, in words ("+12%", "new", "same"). */
export function change(current: number | null, previous: number | null): string {
  if (current === null || previous === null) {
    return ""
  }
  if (current === previous) {
    return "same as before"
  }
  if (previous === 0) {
    return "new this period"
  }
  const percent = Math.round(((current - previous) / Math.abs(previous)) * 100)
  return `${percent > 0 ? "+" : ""}${percent}% on before`
}
