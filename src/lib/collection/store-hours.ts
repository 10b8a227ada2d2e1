/**
 * A store's weekly hours as the service gives them (`operatingHours`, whose shape the spec does not show): the
 * plausible shapes read, anything else read as no hours rather than a guess.
 */
import { isTimeZone } from "../support/time-zone"

export interface OpeningHours {
  /** The zone the hours are in, when the service names a valid one. */
  time_zone: string | null
  /** Monday first; a day the service does not mention is left out. */
  days: { day: Weekday; spans: { open: string; close: string }[] }[]
}

export type Weekday = "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday"

export const WEEKDAYS: Weekday[] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

/** "mon", "Mon", "monday", "MONDAY", "tues", "thurs" → the day; anything else null (numbers are ambiguous: 0 or 1 for Monday?). */
function weekdayOf(key: unknown): Weekday | null {
  if (typeof key !== "string") {
    return null
  }
  const text = key.trim().toLowerCase()
  return WEEKDAYS.find((d) => text.length >= 3 && d.toLowerCase().startsWith(text)) ?? null
}

/** 00:00 to 23:59, and 24:00 for a day's end ("09:00-24:00"). */
const TIME = /^([01]?\d|2[0-3])[:.]?([0-5]\d)$|^(24)[:.]?(00)$/

function timeOf(value: unknown): string | null {
  if (typeof value !== "string") {
    return null
  }
  const match = TIME.exec(value.trim())
  return match ? `${(match[1] ?? match[3]).padStart(2, "0")}:${match[2] ?? match[4]}` : null
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

/** One span, or null when the value is not one. */
function spanOf(value: unknown): { open: string; close: string } | null {
  if (typeof value === "string") {
    const [open, close, ...rest] = value.split(/\s*(?:-|–|—|to)\s*/)
    const span = { open: timeOf(open), close: timeOf(close) }
    return !rest.length && span.open && span.close ? { open: span.open, close: span.close } : null
  }
  const o = objectOf(value)
  if (!o) {
    return null
  }
  const open = timeOf(o.open ?? o.opens ?? o.from ?? o.start ?? o.openTime ?? o.opensAt)
  const close = timeOf(o.close ?? o.closes ?? o.to ?? o.end ?? o.closeTime ?? o.closesAt)
  return open && close ? { open, close } : null
}

const CLOSED = new Set(["closed", "none", ""])

/** A day's spans: [] when closed, null when the value cannot be read. */
function spansOf(value: unknown): { open: string; close: string }[] | null {
  if (value === null || value === false || (typeof value === "string" && CLOSED.has(value.trim().toLowerCase()))) {
    return []
  }
  if (objectOf(value)?.closed === true) {
    return []
  }
  const list = Array.isArray(value) ? value : [value]
  const spans = list.map(spanOf)
  return spans.every((s) => s !== null) ? (spans as { open: string; close: string }[]) : null
}

function zoneOf(value: unknown): string | null {
  return isTimeZone(value) ? value : null
}

export function readOpeningHours(value: unknown): OpeningHours | null {
  const root = objectOf(value)
  const time_zone = zoneOf(root?.timezone ?? root?.timeZone ?? root?.time_zone)
  const byDay = new Map<Weekday, { open: string; close: string }[]>()
  const listed = Array.isArray(value) ? value : Array.isArray(root?.days) ? (root.days as unknown[]) : null
  if (listed) {
    for (const item of listed) {
      const o = objectOf(item)
      const day = weekdayOf(o?.day ?? o?.dayOfWeek ?? o?.weekday)
      const spans = o && spansOf(o.closed === true ? null : o)
      if (!day || !spans) {
        return null
      }
      byDay.set(day, [...(byDay.get(day) ?? []), ...spans])
    }
  } else {
    const days = objectOf(root?.days) ?? root
    for (const [key, hours] of Object.entries(days ?? {})) {
      const day = weekdayOf(key)
      if (!day) {
        continue
      }
      const spans = spansOf(hours)
      if (!spans) {
        return null
      }
      byDay.set(day, spans)
    }
  }
  if (!byDay.size) {
    return null
  }
  return { time_zone, days: WEEKDAYS.filter((d) => byDay.has(d)).map((day) => ({ day, spans: byDay.get(day)! })) }
}
