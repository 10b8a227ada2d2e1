/**
 * The `data` of every notification the plugin sends (decision 49; README, Notifications): a public contract, whose
 * fields are added, never renamed; the shopper's name as a message may write it.
 */
import { countryName } from "../address/country-names"
import type { MedusaAddress } from "../contracts/plugin-data"
import { type Clock, durationText, momentShortText, momentText, windowShortText, windowText } from "./local-time"
import { type CollectionRecord, currentCollectBy } from "../collection/collection-hold"
import { shownCode } from "../collection/collection-code"
import {
  type LastmileNotificationEvent,
  type NotificationAudience,
  type TaskMode,
  audienceOf,
  type ProblemKind,
  problemKindOf,
} from "./notification-events"
import type { OpeningHours } from "../collection/store-hours"
import { openingHoursLines } from "./opening-hours"
import { fill } from "./catalogues/catalogue"

export type LastmileNotificationAddress = {
  address_1: string | null
  address_2: string | null
  city: string | null
  postal_code: string | null
  country_code: string | null
  /** The address on one line: "4 Electric Avenue, London SW9 8JX". */
  text: string
}

export type LastmileNotificationData = {
  /** Which message (README, Notifications). */
  event: LastmileNotificationEvent
  audience: NotificationAudience
  /** The headline: the email's subject; the admin's notification bell shows it. */
  title: string
  /** A sentence or two: the bell shows it under the title (with the order's admin link for the merchant). */
  description: string
  /** When the task reached this step (ISO 8601). */
  occurred_at: string
  /** When the message was written (ISO 8601): "today" and "tomorrow" in the texts are relative to it. */
  written_at: string
  /** The IANA zone and the locale of every text here (`UTC` when no zone of the store's is known). */
  time_zone: string
  locale: string
  /** The shop the message is from: `notifications.shop_name`, else the store's name. */
  shop: { name: string | null }
  order: {
    id: string
    display_id: number | null
    /** "#1001" (the order id when it has no display id). */
    name: string
    email: string | null
    /** The order in the admin (merchant messages; null in the shopper's): absolute when the backend's URL is configured, else a path. */
    admin_url: string | null
    /** The order on the storefront (`notifications.order_url` with the order's id); null when not configured. */
    url: string | null
  }
  /**
   * The shopper's name as the order gives it, each part one line of at most 60 characters; a part carrying a link or
   * an address is null (it never reaches a message).
   */
  customer: {
    first_name: string | null
    last_name: string | null
    /** "Ada Lovelace", as the order names the shopper. */
    full_name: string | null
  }
  /** What the parcel holds: the task's items (its fulfillment's, else the order's). */
  items: { title: string; quantity: number }[]
  task: {
    /** The plugin's task row. */
    id: string
    kind: "delivery" | "return"
    mode: TaskMode
    /** order, exchange, claim, part (items shipped separately) or return. */
    origin: string | null
    /** An exchange's or a claim's replacement. */
    replacement: boolean
    /** The service's status value now. */
    status: string | null
  }
  /** The service's tracking code and page (only an http or https link). */
  tracking: { code: string | null; url: string | null }
  /** The rate booked: its name (the store's, for a collection). */
  rate: { code: string | null; name: string | null } | null
  /**
   * The delivery window, ISO 8601, and in words ("tomorrow (Tuesday 3 December)
   * between 08:00 and 20:00"); a collection's opens when it is ready ("from
   * 14:00 today (Tuesday 3 December)"). Never one that has ended when the message is written; after a failed attempt,
   * only a window the service gave since (decision 60).
   */
  window: { from: string; to: string; text: string; short_text?: string } | null
  /** The store of a collection. */
  store: {
    name: string | null
    address: LastmileNotificationAddress | null
    /** ["Monday to Saturday: 09:00–18:00", "Sunday: 11:00–17:00"]; null when the service does not give them. */
    opening_hours: string[] | null
    /** The store's own words for collecting there (its desk, entrance, parking); null when it has none. */
    instructions?: string | null
  } | null
  /**
   * A collection at the counter (decision 65): until when it is held, and, in the shopper's messages once it is ready
   * (ready, reminder, extended), the code the store checks and its QR image. Null for a delivery or a return, and
   * before a collection is held (absent from older plugins).
   */
  collection?: {
    ready_at: string | null
    collect_by: string | null
    /** "18:00 on Tuesday 9 December" (the clock's words). */
    collect_by_text: string | null
    /** "Tue 9 Dec 18:00", for a text message. */
    collect_by_short: string | null
    /** The code, six characters; null in the merchant's messages and before it is ready. */
    code: string | null
    /** The code as it is read out: "ACE 479". */
    code_text: string | null
    /** The code as a QR image (a PNG `data:` URL), for an email; null without a code. */
    qr_image: string | null
    /** How many times its hold was extended. */
    extensions: number
  } | null
  /** Where the courier collects a return (the order's shipping address). */
  pickup_address: LastmileNotificationAddress | null
  /** A delivery problem: what the service said, and what kind it is. */
  problem: { kind: ProblemKind; status: string | null } | null
  /** A ready collection waiting: since when, and how long that is. */
  waiting: { since: string; since_text: string; for_text: string } | null
  /** The merchant's booking messages: why, and whether the plugin retries it. */
  booking: { reason: string | null; attempts: number; retrying: boolean; next_attempt_at: string | null } | null
}

/** What a message is built from, read by the step (the task row, the order, its fulfillment, the store). */
export interface NotificationFacts {
  task: {
    id: string
    kind: "delivery" | "return"
    mode: TaskMode
    origin: string | null
    status: string
    service_status: string | null
    tracking_id: string | null
    tracking_url: string | null
    attempts: number
    last_error: string | null
    next_attempt_at: string | null
  }
  order: {
    id: string
    display_id: number | null
    email: string | null
    first_name: string | null
    last_name: string | null
    shipping_address: MedusaAddress | null
    /** The shipping address's phone as typed, and its country (for a number written locally). */
    phone?: string | null
    /** Medusa's `order.locale` (BCP 47), when the storefront set one. */
    locale?: string | null
  }
  rate: { code: string | null; name: string | null; window: { from: string; to: string } | null } | null
  store: {
    name: string | null
    address: MedusaAddress | null
    hours: OpeningHours | null
    /** The store's own words for collecting there (its stock location's pickup settings). */
    instructions?: string | null
  } | null
  /** A collection's record at the store (its code, ready time, collect-by, extensions). */
  collection?: CollectionRecord | null
  admin_url: string
  /** The shop's name: the option's, else the store's. */
  shop_name?: string | null
  /** The order on the storefront; null when `notifications.order_url` is not set. */
  order_url?: string | null
  /** The task's items (title and quantity). */
  items?: { title: string; quantity: number }[]
  /** Windows the service gave with a status, oldest first (`at`: when the plugin read it). */
  service_windows?: { at: string; from: string; to: string }[]
  /** Which of the merchant's switches said not to tell the shopper (Medusa's `no_notification`), if any. */
  quiet?: QuietSource | null
  /** The store's first supported locale (Medusa's store locales), the default when the options name none. */
  store_locale?: string | null
}

/** Where the merchant said `no_notification`: the order, its return, exchange or claim, or the fulfillment. */
export type QuietSource = "order" | "return" | "exchange" | "claim" | "fulfillment"

export interface MessageStep {
  event: LastmileNotificationEvent
  /** When the task reached it (ISO 8601). */
  at: string
  /** The service status behind it. */
  status: string | null
  /** The step comes after a delivery problem (a new trip out): only a window the service gave since then is true. */
  after_problem_at?: string | null
  /** A collection's reminder or time up: since when it has waited at the store. */
  since?: string | null
}

/** Only an absolute http(s) link without credentials reaches a message. */
export function safeLink(value: string | null | undefined): string | null {
  if (!value) {
    return null
  }
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password ? url.href : null
  } catch {
    return null
  }
}

export function addressOf(address: MedusaAddress | null | undefined): LastmileNotificationAddress | null {
  if (!address) {
    return null
  }
  const clean = (value: string | null | undefined) => value?.trim() || null
  const line = [clean(address.address_1), clean(address.address_2)].filter(Boolean).join(", ")
  const town = [clean(address.city), clean(address.postal_code)].filter(Boolean).join(" ")
  const text = [line, town].filter(Boolean).join(", ")
  if (!text) {
    return null
  }
  return {
    address_1: clean(address.address_1),
    address_2: clean(address.address_2),
    city: clean(address.city),
    postal_code: clean(address.postal_code),
    country_code: clean(address.country_code)?.toLowerCase() ?? null,
    text,
  }
}

/** The address with its country's name, for a shopper abroad: "…, London SW9 8JX, United Kingdom". */
export function addressWithCountry(address: LastmileNotificationAddress): string {
  const country = address.country_code ? countryName(address.country_code) : null
  return country ? `${address.text}, ${country}` : address.text
}

/** "from 14:00 today (Tuesday 3 December)". */
function fromMomentText(date: Date, clock: Clock): string {
  return fill(clock.phrases.from_moment, { moment: momentText(date, clock) }) ?? momentText(date, clock)
}

function orderName(order: NotificationFacts["order"]): string {
  return order.display_id !== null && order.display_id !== undefined ? `#${order.display_id}` : order.id
}

/**
 * The window a message may state (decision 60): for a step after a problem, the latest the service gave since the
 * problem; otherwise the latest the service gave, else the booked rate's; and none that has ended by `now`.
 */
export function truthfulWindow(
  facts: Pick<NotificationFacts, "rate" | "service_windows">,
  step: Pick<MessageStep, "after_problem_at">,
  now: Date
): { from: string; to: string } | null {
  const given = facts.service_windows ?? []
  const since = step.after_problem_at ? Date.parse(step.after_problem_at) : null
  const candidates =
    since !== null
      ? given.filter((w) => Date.parse(w.at) >= since)
      : [...(facts.rate?.window ? [{ at: "", ...facts.rate.window }] : []), ...given]
  const latest = candidates.at(-1)
  if (!latest) {
    return null
  }
  const end = Date.parse(latest.to)
  return Number.isNaN(end) || end <= now.getTime() ? null : { from: latest.from, to: latest.to }
}

/** The messages that show the shopper their code: only once the collection is ready, and only to the shopper. */
export const CODE_EVENTS: ReadonlySet<LastmileNotificationEvent> = new Set([
  "collection_ready",
  "collection_reminder",
  "collection_extended",
])

/** A collection's hold as a message says it; the code only where the shopper is told it (decision 65). */
function collectionData(
  record: CollectionRecord | null,
  event: LastmileNotificationEvent,
  clock: Clock
): NonNullable<LastmileNotificationData["collection"]> | null {
  if (!record) {
    return null
  }
  const by = currentCollectBy(record)
  const at = by ? new Date(by) : null
  const code = CODE_EVENTS.has(event) && record.ready_at && !record.handed_over ? record.code : null
  return {
    ready_at: record.ready_at,
    collect_by: by,
    collect_by_text: at ? momentText(at, clock) : null,
    collect_by_short: at ? momentShortText(at, clock) : null,
    code,
    code_text: code ? shownCode(code) : null,
    qr_image: null,
    extensions: record.extensions.length,
  }
}

/**
 * The data Medusa keeps: the notification row (and its `data`) is read by any admin (`GET /admin/notifications`), so
 * with the words sent as `content` the collection code travels there only (decision 65).
 */
export function withoutCollectionCode(data: LastmileNotificationData): LastmileNotificationData {
  return data.collection?.code
    ? { ...data, collection: { ...data.collection, code: null, code_text: null, qr_image: null } }
    : data
}

/** The data of one message, before its title and description (the renderer writes those). */
export function notificationData(
  facts: NotificationFacts,
  step: MessageStep,
  clock: Clock
): Omit<LastmileNotificationData, "title" | "description"> {
  const { task, order } = facts
  const audience = audienceOf(step.event)
  const window = truthfulWindow(facts, step, clock.now)
  // A collection's window opens when it is ready (and closes with the store): "from 14:00 today (…)".
  const windowWords = !window
    ? null
    : task.mode === "collection"
      ? Number.isNaN(Date.parse(window.from))
        ? null
        : fromMomentText(new Date(window.from), clock)
      : windowText(window, clock)
  const shortWords = window && task.mode !== "collection" ? windowShortText(window, clock) : null
  const since = step.since ? new Date(step.since) : null
  const waiting =
    (step.event === "collection_reminder" || step.event === "merchant_not_collected") &&
    since &&
    !Number.isNaN(since.getTime())
      ? {
          since: since.toISOString(),
          since_text: momentText(since, clock),
          for_text: durationText(Math.max(0, Date.parse(step.at) - since.getTime()), clock),
        }
      : null
  const firstName = nameForMessage(order.first_name)
  const lastName = nameForMessage(order.last_name)
  const fullName = [firstName, lastName].filter(Boolean).join(" ") || null
  return {
    event: step.event,
    audience,
    occurred_at: step.at,
    written_at: clock.now.toISOString(),
    time_zone: clock.timeZone,
    locale: clock.locale,
    shop: { name: facts.shop_name?.trim() || null },
    order: {
      id: order.id,
      display_id: order.display_id,
      name: orderName(order),
      email: order.email,
      admin_url: audience === "merchant" ? facts.admin_url : null,
      url: safeLink(facts.order_url),
    },
    customer: {
      first_name: firstName,
      last_name: lastName,
      full_name: fullName,
    },
    items: (facts.items ?? []).map((i) => ({ title: i.title, quantity: i.quantity })),
    task: {
      id: task.id,
      kind: task.kind,
      mode: task.mode,
      origin: task.origin,
      replacement: task.origin === "exchange" || task.origin === "claim",
      status: task.service_status,
    },
    tracking: { code: task.tracking_id, url: safeLink(task.tracking_url) },
    rate: facts.rate ? { code: facts.rate.code, name: facts.rate.name } : null,
    window:
      window && windowWords
        ? { from: window.from, to: window.to, text: windowWords, ...(shortWords ? { short_text: shortWords } : {}) }
        : null,
    store:
      task.mode === "collection" && facts.store
        ? {
            name: facts.store.name,
            address: addressOf(facts.store.address),
            opening_hours: facts.store.hours ? openingHoursLines(facts.store.hours, clock) : null,
            instructions: facts.store.instructions ?? null,
          }
        : null,
    collection: task.mode === "collection" ? collectionData(facts.collection ?? null, step.event, clock) : null,
    pickup_address: task.mode === "return" ? addressOf(order.shipping_address) : null,
    problem:
      step.event === "delivery_problem" || step.event === "merchant_delivery_problem"
        ? { kind: problemKindOf(step.status ?? ""), status: step.status }
        : null,
    waiting,
    booking:
      step.event === "merchant_booking_failed" || step.event === "merchant_booking_needs_attention"
        ? {
            reason: task.last_error,
            attempts: task.attempts,
            retrying: task.status === "failed" && !!task.next_attempt_at,
            next_attempt_at: task.status === "failed" ? task.next_attempt_at : null,
          }
        : null,
  }
}

/**
 * A shopper's name as a message may write it (decision 60): one line of at most 60 characters, and none that carries
 * a link or an address, so a shop's messages cannot relay someone else's text. */
export const NAME_MAX_LENGTH = 60

// Control characters and the marks that reorder text (bidi overrides and isolates, zero-width joiners).
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g

/** The first line of what was typed, invisible marks out, spaces collapsed, cut to 60 characters; null when empty. */
export function oneLineName(raw: string | null | undefined): string | null {
  const firstLine = (raw ?? "").split(/[\r\n\u2028\u2029\u0085]/)[0] ?? ""
  const line = firstLine.replace(INVISIBLE, "").replace(/\s+/g, " ").trim()
  const cut = [...line].slice(0, NAME_MAX_LENGTH).join("").trim()
  return cut || null
}

const LINK = /(:\/\/|www\.|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b)/i
const EMAIL = /@/

/** Whether a name carries a web or email address. */
export function carriesLinkOrAddress(name: string): boolean {
  return LINK.test(name) || EMAIL.test(name)
}

/** The name a message may write: one line, and none at all when it carries a link or an address. */
export function nameForMessage(raw: string | null | undefined): string | null {
  const name = oneLineName(raw)
  return name && !carriesLinkOrAddress(name) ? name : null
}
