/**
 * Times as a shopper reads them, in the store's zone and the message's language, relative to when it was written, so a
 * message rebuilt later reads the same; UTC says so (decisions 49 and 59). */
import { type PhraseId, fill } from "./catalogues/catalogue"

export interface Clock {
  timeZone: string
  locale: string
  /** When the message is written. */
  now: Date
  /** The locale's phrases ("today ({date})", …). */
  phrases: Record<PhraseId, string>
  /** No zone of the store's is known: the times are UTC, written with "UTC" after them. */
  utc?: boolean
}

/** The locale Intl formats with: the message's when the runtime knows it, else British English. */
export function intlLocale(locale: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length ? locale : "en-GB"
  } catch {
    return "en-GB"
  }
}

function phrase(clock: Pick<Clock, "phrases">, id: PhraseId, values: Record<string, string>): string {
  return fill(clock.phrases[id], values) ?? ""
}

function parts(date: Date, timeZone: string): { year: number; month: number; day: number } {
  const formatted = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(date)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {})
  return { year: Number(formatted.year), month: Number(formatted.month), day: Number(formatted.day) }
}

/** Calendar days from `now` to `date` in the zone: 0 today, 1 tomorrow, -1 yesterday. */
export function daysFromNow(date: Date, clock: Pick<Clock, "timeZone" | "now">): number {
  const a = parts(clock.now, clock.timeZone)
  const b = parts(date, clock.timeZone)
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000)
}

/** "08:00" in en-GB, "8:00 AM" in en-US; "08:00 UTC" when no store zone is known. */
export function timeText(date: Date, clock: Pick<Clock, "timeZone" | "locale" | "phrases" | "utc">): string {
  const time = new Intl.DateTimeFormat(intlLocale(clock.locale), {
    timeZone: clock.timeZone,
    hour: "2-digit",
    minute: "2-digit",
  }).format(date)
  return clock.utc ? phrase(clock, "utc_time", { time }) : time
}

/** "Tuesday 3 December" (en-GB) or "Tuesday, December 3" (en-US). */
export function dateText(date: Date, clock: Pick<Clock, "timeZone" | "locale">): string {
  return new Intl.DateTimeFormat(intlLocale(clock.locale), {
    timeZone: clock.timeZone,
    weekday: "long",
    day: "numeric",
    month: "long",
  }).format(date)
}

/** "today (Tuesday 3 December)", "tomorrow (…)", or "on Friday 6 December". */
export function dayText(date: Date, clock: Clock): string {
  const days = daysFromNow(date, clock)
  const id: PhraseId = days === 0 ? "today" : days === 1 ? "tomorrow" : "on_date"
  return phrase(clock, id, { date: dateText(date, clock) })
}

/** "14:00 today (Tuesday 3 December)". */
export function momentText(date: Date, clock: Clock): string {
  return phrase(clock, "moment", { time: timeText(date, clock), day: dayText(date, clock) })
}

function validWindow(window: { from: string; to: string }): { from: Date; to: Date } | null {
  const from = new Date(window.from)
  const to = new Date(window.to)
  return Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || to < from ? null : { from, to }
}

/**
 * A window in words: "tomorrow (Tuesday 3 December) between 08:00 and 20:00", or, across days, "between 18:00 on
 * Monday 2 December and 10:00 on Tuesday 3 December". Null for a window that is not two valid times in order.
 */
export function windowText(window: { from: string; to: string }, clock: Clock): string | null {
  const valid = validWindow(window)
  if (!valid) {
    return null
  }
  const { from, to } = valid
  if (daysFromNow(from, clock) === daysFromNow(to, clock)) {
    return phrase(clock, "window_same_day", {
      day: dayText(from, clock),
      from: timeText(from, clock),
      to: timeText(to, clock),
    })
  }
  return phrase(clock, "window_across_days", {
    from: timeText(from, clock),
    from_date: dateText(from, clock),
    to: timeText(to, clock),
    to_date: dateText(to, clock),
  })
}

/** A day for a text message: "today", "tomorrow", "Wed 3 Dec". */
function shortDayText(date: Date, clock: Clock): string {
  const days = daysFromNow(date, clock)
  return days === 0 || days === 1
    ? clock.phrases[days === 0 ? "today_word" : "tomorrow_word"]
    : new Intl.DateTimeFormat(intlLocale(clock.locale), {
        timeZone: clock.timeZone,
        weekday: "short",
        day: "numeric",
        month: "short",
      }).format(date)
}

/** A moment for a text message: "tomorrow 18:00", "Tue 9 Dec 18:00". */
export function momentShortText(date: Date, clock: Clock): string {
  return `${shortDayText(date, clock)} ${timeText(date, clock)}`
}

/** A window for a text message: "today 08:00-20:00", "Wed 3 Dec 08:00-20:00". */
export function windowShortText(window: { from: string; to: string }, clock: Clock): string | null {
  const valid = validWindow(window)
  if (!valid) {
    return null
  }
  const day = shortDayText(valid.from, clock)
  const time = { ...clock, utc: false }
  return phrase(clock, "window_short", {
    day,
    from: timeText(valid.from, time),
    to: timeText(valid.to, clock),
  })
}

/**
 * "2 days", "36 hours", "90 minutes": a duration in the locale's words, exact when it is whole days or hours, else
 * rounded to days from two days on, to hours from one hour on.
 */
export function durationText(ms: number, clock: Pick<Clock, "locale" | "phrases">): string {
  const plural = new Intl.PluralRules(intlLocale(clock.locale))
  const say = (n: number, unit: "day" | "hour" | "minute") =>
    phrase(clock, `duration_${unit}_${plural.select(n) === "one" ? "one" : "other"}` as PhraseId, { n: String(n) })
  const DAY = 86_400_000
  const HOUR = 3_600_000
  if (ms > 0 && ms % DAY === 0) {
    return say(ms / DAY, "day")
  }
  if (ms > 0 && ms % HOUR === 0) {
    return say(ms / HOUR, "hour")
  }
  if (ms >= 2 * DAY) {
    return say(Math.round(ms / DAY), "day")
  }
  if (ms >= HOUR) {
    return say(Math.round(ms / HOUR), "hour")
  }
  return say(Math.round(ms / 60_000), "minute")
}

/** "once", "twice", "3 times". */
export function timesText(n: number, clock: Pick<Clock, "phrases">): string {
  return phrase(clock, n === 1 ? "times_one" : n === 2 ? "times_two" : "times_other", { n: String(n) })
}
