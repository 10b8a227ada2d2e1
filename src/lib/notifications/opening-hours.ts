/**
 * A store's opening hours for a message: the plausible shapes of the service's undocumented `operatingHours`;
 * anything else reads as no hours, rather than a guess.
 */
import { type PhraseId, fill } from "./catalogues/catalogue"
import { intlLocale } from "./local-time"

export interface OpeningHours {
  /** The zone the hours are in, when the service names a valid one. */
  time_zone: string | null
  /** Monday first; a day the service does not mention is left out. */
  days: { day: Weekday; spans: { open: string; close: string }[] }[]
}

export type Weekday = "Monday" | "Tuesday" | "Wednesday" | "Thursday" | "Friday" | "Saturday" | "Sunday"

const WEEKDAYS: Weekday[] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

/** "mon", "Mon", "monday", "MONDAY", "tues", "thurs" → the day; anything else null (numbers are ambiguous: 0 or 1 for Monday?). */
function weekdayOf(key: unknown): Weekday | null {
  if (typeof key !== "string") {
    return null
  }
  const text = key.trim().toLowerCase()
  return WEEKDAYS.find((d) => text.length >= 3 && d.toLowerCase().startsWith(text)) ?? null
}

const TIME = /^([01]?\d|2[0-3])[:.]?([0-5]\d)$/

function timeOf(value: unknown): string | null {
  if (typeof value !== "string") {
    return null
  }
  const match = TIME.exec(value.trim())
  return match ? `${match[1].padStart(2, "0")}:${match[2]}` : null
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
  if (typeof value !== "string" || !value.trim()) {
    return null
  }
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: value })
    return value
  } catch {
    return null
  }
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

/** What the hours' words need: the locale (day names) and its phrases ("{from} to {to}", "closed"). */
export type HoursWords = {
  locale: string
  phrases: Pick<Record<PhraseId, string>, "days_range" | "hours_line" | "closed">
}

const ENGLISH: HoursWords = {
  locale: "en-GB",
  phrases: { days_range: "{from} to {to}", hours_line: "{days}: {hours}", closed: "closed" },
}

/** A weekday's name in the locale ("Monday", "lundi"): 2024-01-01 was a Monday. */
function dayName(day: Weekday, locale: string): string {
  const date = new Date(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(day), 12))
  return new Intl.DateTimeFormat(intlLocale(locale), { weekday: "long", timeZone: "UTC" }).format(date)
}

/**
 * The hours as lines, runs of days with the same hours joined, in the message's language:
 * ["Monday to Saturday: 09:00–18:00", "Sunday: 11:00–17:00"].
 */
export function openingHoursLines(hours: OpeningHours, words: HoursWords = ENGLISH): string[] {
  const text = (spans: { open: string; close: string }[]) =>
    spans.length ? spans.map((s) => `${s.open}–${s.close}`).join(", ") : words.phrases.closed
  const runs: { first: Weekday; last: Weekday; text: string; index: number }[] = []
  for (const { day, spans } of hours.days) {
    const index = WEEKDAYS.indexOf(day)
    const said = text(spans)
    const run = runs[runs.length - 1]
    if (run && run.text === said && run.index === index - 1) {
      runs[runs.length - 1] = { ...run, last: day, index }
    } else {
      runs.push({ first: day, last: day, text: said, index })
    }
  }
  return runs.map((r) => {
    const days =
      r.first === r.last
        ? dayName(r.first, words.locale)
        : (fill(words.phrases.days_range, {
            from: dayName(r.first, words.locale),
            to: dayName(r.last, words.locale),
          }) ?? "")
    return fill(words.phrases.hours_line, { days, hours: r.text }) ?? `${days}: ${r.text}`
  })
}
