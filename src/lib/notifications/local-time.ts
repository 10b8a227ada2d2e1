/**
 * Times as a shopper reads them in the store's time zone ("tomorrow, Tuesday 3 December, between 08:00 and 20:00"),
 * relative to when the message was written, so a message rebuilt later reads the same.
 */

export interface Clock {
  timeZone: string
  locale: string
  /** When the message is written. */
  now: Date
}

function parts(date: Date, timeZone: string): { year: number; month: number; day: number } {
  const formatted = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(date)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {})
  return { year: Number(formatted.year), month: Number(formatted.month), day: Number(formatted.day) }
}

/** Calendar days from `now` to `date` in the zone: 0 today, 1 tomorrow, -1 yesterday. */
export function daysFromNow(date: Date, clock: Clock): number {
  const a = parts(clock.now, clock.timeZone)
  const b = parts(date, clock.timeZone)
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000)
}

/** "08:00" (24-hour, as British and most European shoppers read it; "8:00 AM" in en-US). */
export function timeText(date: Date, clock: Pick<Clock, "timeZone" | "locale">): string {
  return new Intl.DateTimeFormat(clock.locale, { timeZone: clock.timeZone, hour: "2-digit", minute: "2-digit" }).format(
    date
  )
}

/** "Tuesday 3 December" (en-GB) or "Tuesday, December 3" (en-US). */
export function dateText(date: Date, clock: Pick<Clock, "timeZone" | "locale">): string {
  return new Intl.DateTimeFormat(clock.locale, {
    timeZone: clock.timeZone,
    weekday: "long",
    day: "numeric",
    month: "long",
  }).format(date)
}

/** "today (Tuesday 3 December)", "tomorrow (…)", or "on Friday 6 December". */
export function dayText(date: Date, clock: Clock): string {
  const days = daysFromNow(date, clock)
  if (days === 0) {
    return `today (${dateText(date, clock)})`
  }
  if (days === 1) {
    return `tomorrow (${dateText(date, clock)})`
  }
  return `on ${dateText(date, clock)}`
}

/** "14:00 today (Tuesday 3 December)". */
export function momentText(date: Date, clock: Clock): string {
  return `${timeText(date, clock)} ${dayText(date, clock)}`
}

/**
 * A window in words: "tomorrow (Tuesday 3 December) between 08:00 and
 * 20:00", or, across days, "between 18:00 on Monday 2 December and 10:00 on
 * Tuesday 3 December". Null for a window that is not two valid times in order.
 */
export function windowText(window: { from: string; to: string }, clock: Clock): string | null {
  const from = new Date(window.from)
  const to = new Date(window.to)
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || to < from) {
    return null
  }
  if (daysFromNow(from, clock) === daysFromNow(to, clock)) {
    return `${dayText(from, clock)} between ${timeText(from, clock)} and ${timeText(to, clock)}`
  }
  return `between ${timeText(from, clock)} on ${dateText(from, clock)} and ${timeText(to, clock)} on ${dateText(to, clock)}`
}

/** "2 days", "36 hours", "90 minutes": a duration as the reminder's words say it. */
export function durationText(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`
  if (ms % 86_400_000 === 0) {
    return plural(ms / 86_400_000, "day")
  }
  if (ms % 3_600_000 === 0) {
    return plural(ms / 3_600_000, "hour")
  }
  return plural(Math.round(ms / 60_000), "minute")
}
