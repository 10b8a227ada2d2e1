/**
 * Local-time arithmetic for store hours, on the platform's time-zone data
 * (Intl), so that cutoffs and openings follow each store's own zone and DST.
 */

export type DayKey = "sun" | "mon" | "tue" | "wed" | "thu" | "fri" | "sat"
export const DAY_KEYS: DayKey[] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

export interface LocalDate {
  year: number
  month: number
  day: number
}

export interface LocalDateTime extends LocalDate {
  hour: number
  minute: number
  weekday: DayKey
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** Whether a store's hours name a zone the runtime knows (the simulator's own: it imports nothing of the plugin). */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.trim() === "") {
    return false
  }
  try {
    formatterFor(value)
    return true
  } catch {
    return false
  }
}

/** Wall-clock fields of an instant in a zone. */
export function toLocal(instant: number, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = {}
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== "literal") {
      parts[part.type] = Number(part.value)
    }
  }
  const weekday = DAY_KEYS[new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay()]
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour % 24, minute: parts.minute, weekday }
}

function offsetAt(instant: number, timeZone: string): number {
  const local = toLocal(instant, timeZone)
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute)
  return asUtc - Math.floor(instant / 60_000) * 60_000
}

/** The instant at which a zone's wall clock shows the given date and time. */
export function fromLocal(date: LocalDate, minutesOfDay: number, timeZone: string): number {
  const guess = Date.UTC(date.year, date.month - 1, date.day, 0, minutesOfDay)
  const first = guess - offsetAt(guess, timeZone)
  const second = guess - offsetAt(first, timeZone)
  return second
}

/** The local date `days` after `date`, with its weekday. */
export function addDays(date: LocalDate, days: number): LocalDate & { weekday: DayKey } {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days))
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: DAY_KEYS[d.getUTCDay()] }
}

/** "09:30" → 570. */
export function parseClock(value: string): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value)
  if (!match) {
    throw new Error(`invalid time of day "${value}" (expected HH:MM)`)
  }
  return Number(match[1]) * 60 + Number(match[2])
}

export function formatClock(minutes: number): string {
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const WEEKDAY_NAMES: Record<DayKey, string> = {
  sun: "Sun",
  mon: "Mon",
  tue: "Tue",
  wed: "Wed",
  thu: "Thu",
  fri: "Fri",
  sat: "Sat",
}

/** "Mon 23 Nov". */
export function formatLocalDate(date: LocalDate & { weekday: DayKey }): string {
  return `${WEEKDAY_NAMES[date.weekday]} ${date.day} ${MONTHS[date.month - 1]}`
}
