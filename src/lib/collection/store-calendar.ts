/**
 * A store's days (decision 65): its weekly hours from the service and its own closed dates, in its time zone; when
 * a collection can be ready, and until when it is held.
 */
import { DateTime } from "luxon"
import { type OpeningHours, WEEKDAYS } from "./store-hours"

export interface StoreCalendar {
  /** The IANA zone the store's days are counted in. */
  timeZone: string
  /** The weekly hours; null when the service gives none (every day is open, until the end of the day). */
  hours: OpeningHours | null
  /** `YYYY-MM-DD` dates the store is closed, whatever its weekly hours say. */
  closedDates: readonly string[]
}

/** The longest a search for an open day looks ahead: a store closed longer is treated as never open. */
const MAX_DAYS_AHEAD = 366

function day(date: DateTime): string {
  return date.toISODate() ?? ""
}

function spansOn(date: DateTime, calendar: StoreCalendar): { open: string; close: string }[] | null {
  if (calendar.closedDates.includes(day(date))) {
    return []
  }
  if (!calendar.hours) {
    return null
  }
  const weekday = WEEKDAYS[date.weekday - 1]
  return calendar.hours.days.find((d) => d.day === weekday)?.spans ?? []
}

/** Whether the store opens on that local day: not a closed date, and with hours that day when hours are known. */
export function isOpenDay(date: DateTime, calendar: StoreCalendar): boolean {
  const spans = spansOn(date, calendar)
  return spans === null || spans.length > 0
}

function at(date: DateTime, time: string): DateTime {
  const [hour, minute] = time.split(":").map(Number)
  // 24:00 is the day's end, the next day's midnight.
  return hour === 24 ? date.plus({ days: 1 }).startOf("day") : date.set({ hour, minute, second: 0, millisecond: 0 })
}

/** A span's close on that day; a close at or before its opening (18:00-02:00, 10:00-00:00) is the next day's. */
function closeOf(date: DateTime, span: { open: string; close: string }): DateTime {
  const close = at(date, span.close)
  return close <= at(date, span.open) ? at(date.plus({ days: 1 }), span.close) : close
}

/** When the store closes on an open day: its latest span's close, else (no hours known) the end of the day. */
function closingOn(date: DateTime, calendar: StoreCalendar): DateTime {
  const closes = (spansOn(date, calendar) ?? []).map((span) => closeOf(date, span))
  return closes.length ? DateTime.max(...closes)! : date.endOf("day").set({ millisecond: 0 })
}

/** When the store opens on an open day (its earliest span); null when its hours are not known. */
function openingOn(date: DateTime, calendar: StoreCalendar): DateTime | null {
  const opens = (spansOn(date, calendar) ?? []).map((span) => at(date, span.open))
  return opens.length ? DateTime.min(...opens)! : null
}

/** The `count`-th open day after `from`'s local day (1: the next open day); null when none comes within a year. */
function openDayAfter(from: DateTime, count: number, calendar: StoreCalendar): DateTime | null {
  let date = from.startOf("day")
  let found = 0
  for (let ahead = 1; ahead <= MAX_DAYS_AHEAD; ahead++) {
    date = date.plus({ days: 1 })
    if (isOpenDay(date, calendar) && ++found === count) {
      return date
    }
  }
  return null
}

function local(instant: Date, calendar: StoreCalendar): DateTime {
  return DateTime.fromJSDate(instant, { zone: calendar.timeZone })
}

/**
 * Until when a collection made ready at `readyAt` is held: the store's closing time on the `holdDays`-th open day
 * after the day it became ready (closed days are not counted: the shopper has that many days the store is open).
 * A store that never opens again within a year holds it `holdDays` calendar days, to the end of that day.
 */
export function collectByOf(readyAt: Date, holdDays: number, calendar: StoreCalendar): Date {
  const ready = local(readyAt, calendar)
  const last = openDayAfter(ready, holdDays, calendar)
  return (last ? closingOn(last, calendar) : ready.plus({ days: holdDays }).endOf("day")).toJSDate()
}

/**
 * The collect-by after an extension of `days` open days: counted from the current collect-by's day, or from today
 * when that has passed, so an extension always gives the shopper `days` open days from now at least.
 */
export function extendedCollectBy(current: Date, days: number, calendar: StoreCalendar, now: Date): Date {
  return collectByOf(current.getTime() >= now.getTime() ? current : now, days, calendar)
}

/** A readiness moved off a closed date: the window on the next open day, and the closed dates it skipped. */
export interface MovedReadiness {
  window: { from: string; to: string }
  /** The closed dates between the service's readiness and the new one (`YYYY-MM-DD`), oldest first. */
  skipped: string[]
  /** The store's opening time that day is not known: the window starts at midnight, and says no time. */
  time_known: boolean
}

/**
 * A collection the service says is ready on one of the store's closed dates is ready on the next open day instead,
 * from its opening time (decision 65); null when the readiness does not fall on a closed date. Weekly closures are
 * the service's own to know (it has the store's hours); the merchant's closed dates are not.
 */
export function readinessOnOpenDay(
  window: { from: string; to: string },
  calendar: StoreCalendar
): MovedReadiness | null {
  const from = DateTime.fromISO(window.from, { zone: calendar.timeZone })
  if (!from.isValid || !calendar.closedDates.includes(day(from))) {
    return null
  }
  const skipped = [day(from)]
  let next = from.startOf("day")
  for (let ahead = 1; ahead <= MAX_DAYS_AHEAD; ahead++) {
    next = next.plus({ days: 1 })
    if (isOpenDay(next, calendar)) {
      const opening = openingOn(next, calendar)
      const start = opening ?? next
      return {
        window: {
          from: start.toUTC().toISO({ suppressMilliseconds: true }) ?? window.from,
          to: closingOn(next, calendar).toUTC().toISO({ suppressMilliseconds: true }) ?? window.to,
        },
        skipped,
        time_known: opening !== null,
      }
    }
    if (calendar.closedDates.includes(day(next))) {
      skipped.push(day(next))
    }
  }
  return null
}

/** The store's local date of an instant, `YYYY-MM-DD`. */
export function localDateOf(instant: Date, timeZone: string): string {
  return DateTime.fromJSDate(instant, { zone: timeZone }).toISODate() ?? ""
}
