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

/** A day from what the request said, or a problem in words. */
function asDay(name: string, value: string, timeZone: string): { day: string } | { problem: string } {
  if (isDay(value)) {
    return { day: value }
  }
  if (DATE_TIME.test(value)) {
    const at = Date.parse(value)
    if (Number.isFinite(at)) {
      return { day: dayOf(at, timeZone) }
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
