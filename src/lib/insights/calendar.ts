/**
 * Days and weeks in the store's time zone (decision 51): `YYYY-MM-DD` days, weeks from Monday named by their Monday.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const MS_PER_DAY = 86_400_000

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
    formatters.set(timeZone, format)
  }
  return format
}

function parts(instant: number, timeZone: string): Record<string, number> {
  const out: Record<string, number> = {}
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") {
      out[part.type] = Number(part.value)
    }
  }
  return out
}

/** The local day of an instant. */
export function dayOf(instant: Date | number, timeZone: string): string {
  const p = parts(typeof instant === "number" ? instant : instant.getTime(), timeZone)
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`
}

function pad(value: number): string {
  return String(value).padStart(2, "0")
}

/** Whether a string is a real calendar day (`2026-02-30` is not). */
export function isDay(value: string): boolean {
  const m = DAY.exec(value)
  if (!m) {
    return false
  }
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return date.getUTCFullYear() === Number(m[1]) && date.getUTCMonth() === Number(m[2]) - 1
}

function dayNumber(day: string): number {
  const m = DAY.exec(day)
  if (!m) {
    throw new RangeError(`not a day: ${day}`)
  }
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY
}

function dayFromNumber(n: number): string {
  return new Date(n * MS_PER_DAY).toISOString().slice(0, 10)
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return dayFromNumber(dayNumber(day) + n)
}

/** Days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from) + 1
}

/** The Monday of the week a day is in. */
export function weekOf(day: string): string {
  const n = dayNumber(day)
  // 1970-01-01 was a Thursday: (n + 3) % 7 is 0 on Mondays.
  return dayFromNumber(n - ((((n + 3) % 7) + 7) % 7))
}

/** The instant a local day starts (midnight there; the first instant of the day on a daylight-saving change). */
export function startOfDay(day: string, timeZone: string): Date {
  const m = DAY.exec(day)
  if (!m) {
    throw new RangeError(`not a day: ${day}`)
  }
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  // The zone's offset at a guess, then at the corrected instant: twice settles it, DST included.
  let instant = wall - offsetAt(wall, timeZone)
  instant = wall - offsetAt(instant, timeZone)
  return new Date(instant)
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const p = parts(instant, timeZone)
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return wall - Math.floor(instant / 1000) * 1000
}
