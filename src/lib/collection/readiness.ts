/**
 * A collection rate whose readiness falls on one of the store's closed dates (decision 65): its window moved to the
 * next open day and its description the plugin's own sentence, for checkout, the method's data and the booking.
 */
import { DateTime } from "luxon"
import { type StoreCalendar, readinessOnOpenDay } from "./store-calendar"
import { type OpeningHours, readOpeningHours } from "./store-hours"
import { serverTimeZone } from "../support/time-zone"

export interface ReadinessRate {
  window?: { from: string; to: string } | null
  description?: string | null
}

/**
 * The store's calendar from its service hours (raw `operatingHours`) and its closed dates, in the zone its hours name,
 * else `fallbackZone` (the server's unless the caller knows the store's).
 */
export function storeCalendarOf(
  operatingHours: unknown,
  closedDates: readonly string[],
  fallbackZone: string = serverTimeZone()
): StoreCalendar {
  const hours: OpeningHours | null = readOpeningHours(operatingHours)
  return { timeZone: hours?.time_zone ?? fallbackZone, hours, closedDates }
}

/** "Thursday 25 December", in British English (checkout's words are the plugin's own). */
function dateWords(date: string): string {
  return DateTime.fromISO(date).setLocale("en-GB").toFormat("cccc d LLLL")
}

function listWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`
}

/**
 * The rate as the shopper is told it: unchanged unless its readiness falls on a closed date, then ready on the next
 * open day ("Ready to collect on Friday 27 December from 09:00: the store is closed on Thursday 25 December.").
 */
export function withOpenDayReadiness<T extends ReadinessRate>(rate: T, calendar: StoreCalendar): T {
  if (!rate.window || !calendar.closedDates.length) {
    return rate
  }
  const moved = readinessOnOpenDay(rate.window, calendar)
  if (!moved) {
    return rate
  }
  const from = DateTime.fromISO(moved.window.from, { zone: calendar.timeZone }).setLocale("en-GB")
  const when = moved.time_known
    ? `${from.toFormat("cccc d LLLL")} from ${from.toFormat("HH:mm")}`
    : dateWords(from.toISODate() ?? "")
  const closed = listWords(moved.skipped.map(dateWords))
  return {
    ...rate,
    window: moved.window,
    description: `Ready to collect on ${when}: the store is closed on ${closed}.`,
  }
}
