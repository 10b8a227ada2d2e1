/**
 * The period an insights request asks for, as days in the store's time zone, both included; the last 30 days by
 * default.
 */
import { addDays, dayOf, daysBetween, isDay } from "./calendar"

export const DEFAULT_PERIOD_DAYS = 30
/** A year and a day: the longest period one request reads. */
export const MAX_PERIOD_DAYS = 366

export type PeriodResult = { ok: true; from: string; to: string } | { ok: false; problem: string }

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/

/**
 * The days a report may name: the calendar's arithmetic (JavaScript's dates, `Intl`) reads years 0 to 99 as
 * 1900 to 1999 and fails past 275760, and no shop has figures outside these.
 */
export const FIRST_DAY = "2000-01-01"
export const LAST_DAY = "2999-12-31"

const inYears = (day: string) => day >= FIRST_DAY && day <= LAST_DAY

/** A day from what the request said, or a problem in words. */
function asDay(name: string, value: string, timeZone: string): { day: string } | { problem: string } {
  const outside = { problem: `${name} must be a date in the years 2000 to 2999` }
  if (isDay(value)) {
    return inYears(value) ? { day: value } : outside
  }
  if (DATE_TIME.test(value)) {
    // The year is read before the instant: a date-time past 9999 once the offset is applied cannot be formatted.
    if (!inYears(`${value.slice(0, 4)}-06-15`)) {
      return outside
    }
    const at = Date.parse(value)
    if (Number.isFinite(at)) {
      const day = dayOf(at, timeZone)
      return inYears(day) ? { day } : outside
    }
  }
  return { problem: `${name} must be an ISO date (2026-11-01) or date-time (2026-11-01T00:00:00Z)` }
}

export function resolvePeriod(asked: { from?: string; to?: string }, timeZone: string, now: Date): PeriodResult {
  const today = dayOf(now, timeZone)
  const from = asked.from === undefined ? undefined : asDay("from", asked.from, timeZone)
  const to = asked.to === undefined ? undefined : asDay("to", asked.to, timeZone)
  const problems = [from, to].flatMap((p) => (p && "problem" in p ? [p.problem] : []))
  if (problems.length) {
    return { ok: false, problem: problems.join("; ") }
  }
  const fromDay = from && "day" in from ? from.day : undefined
  const toDay = to && "day" in to ? to.day : undefined
  const end = toDay ?? (fromDay && fromDay > today ? fromDay : today)
  const start = fromDay ?? addDays(end, -(DEFAULT_PERIOD_DAYS - 1))
  if (start > end) {
    return { ok: false, problem: `from (${start}) must not be after to (${end})` }
  }
  if (daysBetween(start, end) > MAX_PERIOD_DAYS) {
    return { ok: false, problem: `the period may be at most ${MAX_PERIOD_DAYS} days long` }
  }
  return { ok: true, from: start, to: end }
}
