/**
 * Text a delivery step shows, from the platform's Intl data in the shopper's locale and the store's time zone (a
 * server's zone is usually UTC: pass `timeZone`).
 */
import type { LastmileWindow } from "./contract.js"

export interface LastmileFormatOptions {
  /** BCP 47 locale, e.g. "en-GB"; the runtime's default when omitted. */
  locale?: string
  /** IANA time zone the window is shown in, e.g. "Europe/London"; the runtime's when omitted. */
  timeZone?: string
  /** "Today" and "tomorrow" are counted from this instant (tests, or a server rendering for another day). */
  now?: Date
  /** The unit of the service's `co2Savings`, which its spec leaves unstated. */
  co2Unit?: "kilogram" | "gram"
  /** How a store's distance is shown (the rates route gives kilometres): "kilometer" (default) or "mile". */
  distanceUnit?: "kilometer" | "mile"
}

/** An amount in major units (as Medusa and the rates route give it) with its currency: 4.95 "gbp" → "£4.95". */
export function formatAmount(
  amount: number,
  currencyCode: string,
  options: Pick<LastmileFormatOptions, "locale"> = {}
): string {
  return new Intl.NumberFormat(options.locale, { style: "currency", currency: currencyCode.toUpperCase() }).format(
    amount
  )
}

/**
 * A delivery window: "Tomorrow, 09:00–13:00" (en-GB) when it starts today or
 * tomorrow and ends the same day, "Thursday 30 July, 09:00–13:00" later on,
 * and a full range when it spans days. Null without a readable window.
 */
export function formatWindow(
  window: LastmileWindow | null | undefined,
  options: Omit<LastmileFormatOptions, "co2Unit"> = {}
): string | null {
  if (!window) {
    return null
  }
  const from = new Date(window.from)
  const to = new Date(window.to)
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()) || to < from) {
    return null
  }
  const { locale, timeZone } = options
  if (calendarDay(from, timeZone) !== calendarDay(to, timeZone)) {
    return new Intl.DateTimeFormat(locale, {
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "numeric",
      minute: "2-digit",
      timeZone,
    }).formatRange(from, to)
  }
  const days = daysBetween(options.now ?? new Date(), from, timeZone)
  const day =
    days === 0 || days === 1
      ? capitalise(new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(days, "day"), locale)
      : new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", timeZone }).format(from)
  const hours = new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone }).formatRange(from, to)
  return `${day}, ${hours}`
}

/**
 * A rate's CO₂ saving: 0.42 → "0.42 kg CO₂". Null when there is none to
 * show (the service sends 0 or nothing for rates that save nothing).
 */
export function formatCo2Savings(
  value: number | null | undefined,
  options: Pick<LastmileFormatOptions, "locale" | "co2Unit"> = {}
): string | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    return null
  }
  const amount = new Intl.NumberFormat(options.locale, {
    style: "unit",
    unit: options.co2Unit ?? "kilogram",
    unitDisplay: "short",
    maximumFractionDigits: 2,
  }).format(value)
  return `${amount} CO₂`
}

const KM_PER_MILE = 1.609344

/**
 * A store's distance from the shopper (the rates route's `distance_km`): 1.2 → "1.2 km" (`unitDisplay: "long"`, for
 * a screen reader: "1.2 kilometres"), in miles with `distanceUnit: "mile"`; under a tenth, "under 0.1 km". Null
 * without a distance.
 */
export function formatDistance(
  km: number | null | undefined,
  options: Pick<LastmileFormatOptions, "locale" | "distanceUnit"> & { unitDisplay?: "short" | "long" } = {}
): string | null {
  if (typeof km !== "number" || !Number.isFinite(km) || km < 0) {
    return null
  }
  const unit = options.distanceUnit ?? "kilometer"
  const value = unit === "mile" ? km / KM_PER_MILE : km
  const format = (n: number) =>
    new Intl.NumberFormat(options.locale, {
      style: "unit",
      unit,
      unitDisplay: options.unitDisplay ?? "short",
      maximumFractionDigits: 1,
    }).format(n)
  return value < 0.05 ? `under ${format(0.1)}` : format(value)
}

/**
 * When a store keeps a collection until (its collect-by): "Friday 31 July, 18:00" (en-GB) in the store's zone, a
 * date rather than "tomorrow", so it reads the same whenever it is read. Null without a readable instant.
 */
export function formatCollectBy(
  at: string | null | undefined,
  options: Pick<LastmileFormatOptions, "locale" | "timeZone"> = {}
): string | null {
  const date = at ? new Date(at) : null
  if (!date || Number.isNaN(date.getTime())) {
    return null
  }
  const { locale, timeZone } = options
  const day = new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", timeZone }).format(date)
  const time = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone }).format(date)
  return `${day}, ${time}`
}

/** The date an instant falls on in a time zone, as YYYY-MM-DD (en-CA writes dates that way). */
export function calendarDay(date: Date, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone }).format(date)
}

/** Whole calendar days from `from` to `to` in the time zone (not 24-hour periods). */
export function daysBetween(from: Date, to: Date, timeZone: string | undefined): number {
  const utcMidnight = (date: Date) => Date.parse(`${calendarDay(date, timeZone)}T00:00:00Z`)
  return Math.round((utcMidnight(to) - utcMidnight(from)) / 86_400_000)
}

function capitalise(text: string, locale: string | undefined): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1)
}
