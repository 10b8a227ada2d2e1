/**
 * The words of every message as a catalogue per locale (decision 59): subject, text and SMS with named placeholders,
 * and the phrases the texts are built from. */
import { type LastmileNotificationEvent, type ProblemKind } from "../notification-events"

/** A message's words: the email's subject and text, and the SMS (the messages that go by text). */
export interface MessageWords {
  subject: string
  text: string
  sms?: string
}

/** A message in the catalogue: an event, or a delivery problem of one kind. */
export type MessageId = LastmileNotificationEvent | `delivery_problem_${Exclude<ProblemKind, "other">}`

export const PROBLEM_MESSAGE_IDS = [
  "delivery_problem_failed_attempt",
  "delivery_problem_delayed",
  "delivery_problem_returning",
] as const

/** The phrases the texts are built from; each has its own placeholders ({date}, {time}, …). */
export const PHRASE_IDS = [
  "order",
  "order_replacement",
  "order_part",
  "greeting",
  "greeting_anonymous",
  "today",
  "tomorrow",
  "today_word",
  "tomorrow_word",
  "on_date",
  "window_same_day",
  "window_across_days",
  "window_short",
  "moment",
  "from_moment",
  "days_range",
  "hours_line",
  "closed",
  "duration_day_one",
  "duration_day_other",
  "duration_hour_one",
  "duration_hour_other",
  "duration_minute_one",
  "duration_minute_other",
  "times_one",
  "times_two",
  "times_other",
  "item_line",
  "no_reason",
  "mode_delivery",
  "mode_collection",
  "mode_return",
  "the_store",
  "problem_failed_attempt",
  "problem_delayed",
  "problem_returning",
  "problem_other",
  "utc_time",
  "code_image",
] as const

export type PhraseId = (typeof PHRASE_IDS)[number]

/** One locale's words: every phrase and every message (a locale supplied in the options may leave some out). */
export interface Catalogue {
  phrases: Record<PhraseId, string>
  messages: Record<MessageId, MessageWords>
}

/** What `notifications.text` holds for a locale: any message's words, any phrase. */
export interface CatalogueOverride {
  phrases?: Partial<Record<PhraseId, string>>
  messages?: Partial<Record<MessageId, Partial<MessageWords>>>
}

/** The values every message may use. */
const COMMON = [
  "shop_name",
  "order",
  "Order",
  "order_number",
  "order_url",
  "greeting",
  "first_name",
  "full_name",
  "items",
  "tracking_url",
  "tracking_code",
] as const

const WINDOW = ["window", "window_short", "rate_name"] as const
const STORE = ["store_name", "store_address", "opening_hours", "store_instructions", "window", "window_short"] as const
/** A collection at the counter (decision 65): until when it is held, and the code the store checks. */
const COUNTER = ["collect_by", "collect_by_short", "collection_code"] as const
const MERCHANT = ["admin_url", "mode", "status"] as const

/** The placeholders each message may use: anything else in a message's words is refused at boot. */
export const MESSAGE_PLACEHOLDERS: Record<MessageId, readonly string[]> = {
  delivery_booked: [...COMMON, ...WINDOW],
  delivery_out_for_delivery: [...COMMON, ...WINDOW],
  delivery_problem: [...COMMON, ...WINDOW, "status"],
  delivery_problem_failed_attempt: [...COMMON, ...WINDOW, "status"],
  delivery_problem_delayed: [...COMMON, ...WINDOW, "status"],
  delivery_problem_returning: [...COMMON, ...WINDOW, "status"],
  delivery_delivered: [...COMMON, "delivered_at"],
  collection_booked: [...COMMON, ...STORE],
  collection_ready: [...COMMON, ...STORE, ...COUNTER],
  collection_reminder: [...COMMON, ...STORE, ...COUNTER, "waiting_since", "waiting_for"],
  collection_extended: [...COMMON, ...STORE, ...COUNTER],
  collection_collected: [...COMMON, "store_name", "collected_at"],
  return_booked: [...COMMON, "pickup_address", "window", "window_short"],
  return_received: [...COMMON, "received_at"],
  merchant_booking_failed: [...COMMON, ...MERCHANT, "reason", "attempts", "next_attempt"],
  merchant_booking_needs_attention: [...COMMON, ...MERCHANT, "reason"],
  merchant_delivery_problem: [...COMMON, ...MERCHANT, "problem"],
  merchant_not_collected: [...COMMON, ...MERCHANT, "store_name", "waiting_since", "waiting_for", "collect_by"],
  merchant_task_cancelled: [...COMMON, ...MERCHANT],
}

/** The placeholders of each phrase. */
export const PHRASE_PLACEHOLDERS: Record<PhraseId, readonly string[]> = {
  order: ["order_number"],
  order_replacement: ["order_number"],
  order_part: ["order_number"],
  greeting: ["first_name"],
  greeting_anonymous: [],
  today: ["date"],
  tomorrow: ["date"],
  today_word: [],
  tomorrow_word: [],
  on_date: ["date"],
  window_same_day: ["day", "from", "to"],
  window_across_days: ["from", "from_date", "to", "to_date"],
  window_short: ["day", "from", "to"],
  moment: ["time", "day"],
  from_moment: ["moment"],
  days_range: ["from", "to"],
  hours_line: ["days", "hours"],
  closed: [],
  duration_day_one: ["n"],
  duration_day_other: ["n"],
  duration_hour_one: ["n"],
  duration_hour_other: ["n"],
  duration_minute_one: ["n"],
  duration_minute_other: ["n"],
  times_one: [],
  times_two: [],
  times_other: ["n"],
  item_line: ["quantity", "title"],
  no_reason: [],
  mode_delivery: [],
  mode_collection: [],
  mode_return: [],
  the_store: [],
  problem_failed_attempt: [],
  problem_delayed: [],
  problem_returning: [],
  problem_other: [],
  utc_time: ["time"],
  code_image: ["code"],
}

export const MESSAGE_IDS = Object.keys(MESSAGE_PLACEHOLDERS) as MessageId[]

const PLACEHOLDER = /\{([^{}]*)\}/g

/** The names a template uses, in order (`{order_number}` → "order_number"). */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1].trim())
}

/** What is wrong with a template's braces: an unclosed `{`, a stray `}`, an empty `{}`. Null when nothing. */
export function braceProblem(template: string): string | null {
  const rest = template.replace(PLACEHOLDER, (_whole, name: string) => (name.trim() ? "" : "\u0000"))
  if (rest.includes("\u0000")) {
    return "has an empty {}"
  }
  return /[{}]/.test(rest) ? "has a { or } that does not enclose a placeholder name" : null
}

/** The values of a template's placeholders; null or "" when the value is missing. */
export type Values = Record<string, string | null | undefined>

/** A template with its placeholders filled; null when one it uses is missing. */
export function fill(template: string, values: Values): string | null {
  let missing = false
  const filled = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = values[name.trim()]
    if (value === null || value === undefined || value === "") {
      missing = true
      return ""
    }
    return value
  })
  return missing ? null : filled
}

/**
 * A message's text: its paragraphs (separated by a blank line) filled, and a paragraph that uses a value the message
 * does not have left out whole, so "It should arrive {window}." goes when there is no window.
 */
export function fillParagraphs(template: string, values: Values): string[] {
  return template
    .split(/\n\s*\n/)
    .map((paragraph) => fill(paragraph.trim(), values))
    .filter((p): p is string => !!p && !!p.trim())
}

/** An SMS's lines, each left out when it uses a value the message does not have. */
export function fillLines(template: string, values: Values): string[] {
  return template
    .split("\n")
    .map((line) => fill(line.trim(), values))
    .filter((l): l is string => !!l && !!l.trim())
}
