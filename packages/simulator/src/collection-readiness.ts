/**
 * When a store can hand over a collection order: its hours in its own time zone, less its collection cutoff (spec §8:
 * 45 minutes before closing unless the location overrides it).
 */
import { type DayKey, addDays, formatClock, formatLocalDate, fromLocal, parseClock, toLocal } from "./local-time"

export interface OpeningSpan {
  open: string
  close: string
}

export interface OperatingHours {
  timezone: string
  /** A day missing or null is a closed day. */
  days: Partial<Record<DayKey, OpeningSpan | null>>
}

export type ReadinessState = "ready_today" | "later_today" | "after_cutoff"

export interface CollectionReadiness {
  state: ReadinessState
  /** When the order can be collected (UTC). */
  readyAt: number
  /** When the store closes on that day (UTC). */
  closesAt: number
  /** Customer-facing sentence in the store's local time. */
  message: string
}

/**
 * `readyInMinutes` is how long a store needs to prepare an order during
 * opening hours. Returns null when the store never opens.
 */
export function collectionReadiness(
  now: number,
  hours: OperatingHours,
  cutoffMinutes: number,
  readyInMinutes: number
): CollectionReadiness | null {
  const local = toLocal(now, hours.timezone)
  const nowMinutes = local.hour * 60 + local.minute
  const today = hours.days[local.weekday]
  if (today) {
    const open = parseClock(today.open)
    const close = parseClock(today.close)
    const cutoff = close - cutoffMinutes
    const closesAt = fromLocal(local, close, hours.timezone)
    if (nowMinutes < open) {
      return {
        state: "later_today",
        readyAt: fromLocal(local, open, hours.timezone),
        closesAt,
        message: `Ready for collection today from ${formatClock(open)}.`,
      }
    }
    if (nowMinutes < cutoff) {
      const readyAt = Math.min(now + readyInMinutes * 60_000, closesAt)
      return {
        state: "ready_today",
        readyAt,
        closesAt,
        message: `Ready for collection today within ${formatDuration(readyInMinutes)}.`,
      }
    }
  }
  for (let ahead = 1; ahead <= 7; ahead++) {
    const date = addDays(local, ahead)
    const span = hours.days[date.weekday]
    if (!span) {
      continue
    }
    const open = parseClock(span.open)
    const when = ahead === 1 ? `tomorrow (${formatLocalDate(date)})` : formatLocalDate(date)
    return {
      state: "after_cutoff",
      readyAt: fromLocal(date, open, hours.timezone),
      closesAt: fromLocal(date, parseClock(span.close), hours.timezone),
      message: `Today's collection cutoff has passed: ready for collection ${when} from ${formatClock(open)}.`,
    }
  }
  return null
}

function formatDuration(minutes: number): string {
  if (minutes % 60 === 0) {
    const h = minutes / 60
    return `${h} hour${h === 1 ? "" : "s"}`
  }
  return `${minutes} minutes`
}

/** The delivery window of a service `daysAhead` days from now, in local hours. */
export function deliveryWindow(
  now: number,
  timeZone: string,
  daysAhead: number,
  fromClock: string,
  toClock: string
): { from: number; to: number } {
  const date = addDays(toLocal(now, timeZone), daysAhead)
  return {
    from: fromLocal(date, parseClock(fromClock), timeZone),
    to: fromLocal(date, parseClock(toClock), timeZone),
  }
}
