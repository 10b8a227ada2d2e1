/**
 * Words for a screen reader: a choice read as one sentence (its price, window and CO₂ together, not three fragments
 * and a dash), and what a delivery step offers, for a live region to announce when it changes.
 */
import type { LastmileWindow } from "./contract.js"
import { type LastmileFormatOptions, calendarDay, daysBetween, formatDistance } from "./format.js"

/**
 * A window as it is said: "tomorrow between 12:00 and 22:00", "Thursday 30 July between 09:00 and 13:00", or
 * "between Thu 30 Jul, 18:00 and Fri 31 Jul, 09:00" across days. Null without a readable window.
 */
export function formatSpokenWindow(
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
    const moment = new Intl.DateTimeFormat(locale, {
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      timeZone,
    })
    return `between ${moment.format(from)} and ${moment.format(to)}`
  }
  const days = daysBetween(options.now ?? new Date(), from, timeZone)
  const day =
    days === 0 || days === 1
      ? new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(days, "day")
      : new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", timeZone }).format(from)
  const time = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone })
  return `${day} between ${time.format(from)} and ${time.format(to)}`
}

/** What a spoken choice is made of (a choice of the step has all of it). */
export interface LastmileSpokenChoice {
  kind: "delivery" | "collection"
  name: string
  priceText: string
  priceNote: string | null
  window: LastmileWindow | null
  co2Text?: string | null
  description: string | null
  /** A store's address, unless its description already names it. */
  addressText?: string | null
  /** How far a store is from the shopper, in kilometres, when known. */
  distanceKm?: number | null
}

/**
 * A choice as one sentence, the row's accessible name: "Next day eco, £3.95, delivered tomorrow between 12:00 and
 * 22:00, saving 1.1 kg CO₂. By cargo bike." or "Camden store, £0.00, 1.2 kilometres away, 201 Camden High Street,
 * London. Ready to collect from 14:00 today." (the distance when it is known). A price that is not a live quote's says
 * so: "£5.95 (estimated price)".
 */
export function spokenChoiceText(
  choice: LastmileSpokenChoice,
  options: Omit<LastmileFormatOptions, "co2Unit"> = {}
): string {
  const price = choice.priceNote
    ? `${choice.priceText} (${choice.priceNote.toLocaleLowerCase(options.locale)})`
    : choice.priceText
  const parts = [choice.name, price]
  if (choice.kind === "delivery") {
    const window = formatSpokenWindow(choice.window, options)
    if (window) {
      parts.push(`delivered ${window}`)
    }
    if (choice.co2Text) {
      parts.push(`saving ${choice.co2Text}`)
    }
  } else {
    const distance = formatDistance(choice.distanceKm, { ...options, unitDisplay: "long" })
    if (distance) {
      parts.push(`${distance} away`)
    }
    if (choice.addressText) {
      parts.push(choice.addressText)
    }
  }
  const sentence = `${parts.join(", ")}.`
  const description = choice.description?.trim()
  return description ? `${sentence} ${/[.!?]$/.test(description) ? description : `${description}.`}` : sentence
}

/** What a step offers, counted: "2 delivery rates and 6 stores to choose from." */
export function spokenOfferText(counts: { delivery: number; collection: number }): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
  const offered = [
    counts.delivery ? plural(counts.delivery, "delivery rate", "delivery rates") : null,
    counts.collection ? plural(counts.collection, "store", "stores") : null,
  ].filter(Boolean)
  return offered.length ? `${offered.join(" and ")} to choose from.` : "Nothing can be chosen for this order yet."
}
