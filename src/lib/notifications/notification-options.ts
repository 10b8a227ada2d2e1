/**
 * The plugin option `notifications`, validated at boot with one message per bad option; `notifications: false` turns
 * every message off.
 */
import { z } from "zod"
import type { StatusTable } from "../tracking/status-table"
import { isTimeZone } from "../support/time-zone"
import {
  type LastmileNotificationEvent,
  NOTIFICATION_EVENTS,
  defaultTemplateOf,
  STATUS_EVENTS,
  type StatusEvent,
  StatusEvents,
} from "./notification-events"
import {
  BUILT_IN_CATALOGUES,
  type TextOption,
  type Words,
  buildWords,
  matchLocale,
  textOptionProblems,
} from "./catalogues/catalogues"

export interface LastmileNotificationOptions {
  /** Send the plugin's messages. Default true; `notifications: false` says the same. */
  enabled?: boolean
  /** The channel of the shopper's messages. Default "email". */
  channel?: string
  /** The channel of the merchant's messages. Default "feed" (the admin's notification bell). */
  merchant_channel?: string
  /** The events sent. Default: every one (README, Notifications). */
  events?: LastmileNotificationEvent[]
  /** Template id per event, over the default `lastmile-<event in kebab case>`. */
  templates?: Partial<Record<LastmileNotificationEvent, string>>
  /**
   * How long after a collection is ready (or its hold extended) the shopper is reminded: "2d", "36h", "90m"; false:
   * never. Default: half of the hold (`collection.hold_days`). The merchant is told when the hold is up.
   */
  collection_reminder_after?: string | false
  /** Pass the plugin's rendered subject, text and HTML as `content`. Default true; false leaves the message to the provider's templates. */
  send_content?: boolean
  /** The IANA time zone of the times in messages. Default: the store's, when the service gives its hours, else UTC (written "08:00 UTC"). */
  time_zone?: string
  /**
   * The store's default locale: the words of a message whose order has no locale, or one without words. Default: the
   * store's first supported locale that has words, else "en-GB". Built in: "en-GB", "en-US"; others from `text`.
   */
  locale?: string
  /** The channel the shopper's texts go on (out for delivery, a problem, ready to collect, the reminder). Unset: none. */
  sms_channel?: string
  /** The merchant's own email addresses: every merchant alert also goes to each, on the email channel (`channel`). */
  merchant_to?: string[]
  /** The words per locale, over the built-in ones: `{ "fr-FR": { "delivery_booked": { "subject": "…", "text": "…", "sms": "…" }, "phrases": { … } } }`. */
  text?: TextOption
  /** The shop's name in messages. Default: the store's name in Medusa. */
  shop_name?: string
  /** The order on your storefront, with `{order_id}`: "https://shop.example/account/orders/{order_id}". */
  order_url?: string
  /** The shipments the plugin's tracking creates carry `no_notification: true` while shopper messages are on, so a shop's own "shipped" email does not double them. Default true. */
  shipments_no_notification?: boolean
  /**
   * Which channels' providers must answer with a message id for a message to count as sent (a provider that answers
   * without one, like Resend as Medusa's guide builds it, did not send). true: every channel; false: none; a list: those.
   * Default: every channel whose provider is not Medusa's local or SendGrid provider (which never give one).
   */
  require_message_id?: boolean | string[]
  /** Service status → step of the messages (out_for_delivery, ready_for_collection, problem, none), over the defaults. */
  status_events?: Record<string, StatusEvent>
}

/** How a ready collection's reminder is timed: at half of each hold (the default), this long after its start, or never. */
export type ReminderTiming = number | "half_hold" | null

export interface ResolvedNotificationOptions {
  enabled: boolean
  channel: string
  merchantChannel: string
  events: ReadonlySet<LastmileNotificationEvent>
  templates: Readonly<Record<LastmileNotificationEvent, string>>
  /** When a ready collection's reminder goes: at half of each hold, this long after its start, or (null) never. */
  reminder: ReminderTiming
  sendContent: boolean
  /** Null: the store's zone when known, else UTC. */
  timeZone: string | null
  /** The option's default locale; null: the store's. */
  locale: string | null
  statusEvents: StatusEvents
  smsChannel: string | null
  merchantTo: string[]
  /** The catalogues: the built-in ones with `text` over them. */
  words: Words
  shopName: string | null
  /** With `{order_id}`; null when not set. */
  orderUrl: string | null
  shipmentsNoNotification: boolean
  /** Null: the default (every channel but those of Medusa's local and SendGrid providers). */
  requireMessageId: boolean | string[] | null
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(d|h|m)$/
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const

/** "2d" → 172 800 000; null when the text is not a duration. */
export function durationMs(text: string): number | null {
  const match = DURATION.exec(text.trim().toLowerCase())
  if (!match) {
    return null
  }
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]
  return ms >= 60_000 ? ms : null
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1
  } catch {
    return false
  }
}

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/

function isOrderUrl(value: string): boolean {
  try {
    const url = new URL(value.replace(/\{order_id\}/g, "order_1"))
    return (url.protocol === "https:" || url.protocol === "http:") && value.includes("{order_id}")
  } catch {
    return false
  }
}

const eventEnum = z.enum(NOTIFICATION_EVENTS as [LastmileNotificationEvent, ...LastmileNotificationEvent[]], {
  error: `notifications.events lists events among ${NOTIFICATION_EVENTS.join(", ")}`,
})

const channel = (name: string) =>
  z
    .string({ error: `notifications.${name} must be a channel name, like "email"` })
    .trim()
    .min(1, {
      error: `notifications.${name} must be a channel name, like "email"`,
    })

const settingsSchema = z
  .object(
    {
      enabled: z.boolean({ error: "notifications.enabled must be true or false" }).default(true),
      channel: channel("channel").default("email"),
      merchant_channel: channel("merchant_channel").default("feed"),
      events: z.array(eventEnum, { error: "notifications.events must be a list of event names" }).optional(),
      templates: z
        .partialRecord(
          z.enum(NOTIFICATION_EVENTS as [LastmileNotificationEvent, ...LastmileNotificationEvent[]], {
            error: `notifications.templates keys must be events among ${NOTIFICATION_EVENTS.join(", ")}`,
          }),
          z.string().trim().min(1, { error: "notifications.templates values must be template ids" }),
          { error: 'notifications.templates must map events to template ids, like { "delivery_booked": "d-123" }' }
        )
        .default({}),
      collection_reminder_after: z
        .union([z.literal(false), z.string()], {
          error: 'notifications.collection_reminder_after must be a duration like "2d", "36h" or "90m", or false',
        })
        .refine((value) => value === false || durationMs(value) !== null, {
          error: 'notifications.collection_reminder_after must be a duration like "2d", "36h" or "90m", or false',
        })
        .optional(),
      send_content: z.boolean({ error: "notifications.send_content must be true or false" }).default(true),
      time_zone: z
        .string({ error: 'notifications.time_zone must be an IANA time zone, like "Europe/London"' })
        .refine(isTimeZone, { error: 'notifications.time_zone must be an IANA time zone, like "Europe/London"' })
        .optional(),
      locale: z
        .string({ error: 'notifications.locale must be a locale, like "en-GB" or "fr-FR"' })
        .refine(isLocale, { error: 'notifications.locale must be a locale, like "en-GB" or "fr-FR"' })
        .optional(),
      sms_channel: channel("sms_channel").optional(),
      merchant_to: z
        .array(
          z
            .string()
            .trim()
            .regex(EMAIL, { error: 'notifications.merchant_to lists email addresses, like "ops@shop.example"' }),
          { error: 'notifications.merchant_to must be a list of email addresses, like ["ops@shop.example"]' }
        )
        .default([]),
      text: z.unknown().optional(),
      shop_name: z.string({ error: "notifications.shop_name must be your shop's name" }).trim().min(1).optional(),
      order_url: z
        .string({
          error:
            'notifications.order_url must be an http(s) link with {order_id}, like "https://shop.example/orders/{order_id}"',
        })
        .refine(isOrderUrl, {
          error:
            'notifications.order_url must be an http(s) link with {order_id}, like "https://shop.example/orders/{order_id}"',
        })
        .optional(),
      shipments_no_notification: z
        .boolean({ error: "notifications.shipments_no_notification must be true or false" })
        .default(true),
      require_message_id: z
        .union([z.boolean(), z.array(z.string().trim().min(1))], {
          error: "notifications.require_message_id must be true, false or a list of channels",
        })
        .optional(),
      status_events: z
        .record(
          z.string().min(1),
          z.enum(STATUS_EVENTS as [StatusEvent, ...StatusEvent[]], {
            error: `notifications.status_events values must be one of ${STATUS_EVENTS.join(", ")}`,
          }),
          {
            error:
              'notifications.status_events must map service statuses to steps, like { "READY": "ready_for_collection" }',
          }
        )
        .default({}),
    },
    { error: "notifications must be false or an object of settings (README, Notifications)" }
  )
  .superRefine((settings, ctx) => {
    for (const problem of textOptionProblems(settings.text)) {
      ctx.addIssue({ code: "custom", message: problem, path: ["text"] })
    }
    if (settings.locale && !textOptionProblems(settings.text).length) {
      const available = [...Object.keys(BUILT_IN_CATALOGUES), ...Object.keys((settings.text ?? {}) as object)]
      if (!matchLocale(settings.locale, available)) {
        ctx.addIssue({
          code: "custom",
          path: ["locale"],
          message: `notifications.locale is "${settings.locale}", which has no words: add them under notifications.text["${settings.locale}"], or use en-GB or en-US`,
        })
      }
    }
  })

/** `notifications` as the plugin's schema reads it: absent (the defaults), false (off), or the settings. */
export const notificationOptionsSchema = z.preprocess(
  (value) => (value === undefined ? {} : value === false ? { enabled: false } : value),
  settingsSchema
)

export function resolveNotificationOptions(
  parsed: z.infer<typeof notificationOptionsSchema>,
  statusTable: StatusTable
): ResolvedNotificationOptions {
  const settings = parsed
  const templates = Object.fromEntries(
    NOTIFICATION_EVENTS.map((event) => [event, settings.templates[event] ?? defaultTemplateOf(event)])
  ) as Record<LastmileNotificationEvent, string>
  return {
    enabled: settings.enabled,
    channel: settings.channel,
    merchantChannel: settings.merchant_channel,
    events: new Set(settings.events ?? NOTIFICATION_EVENTS),
    templates,
    reminder:
      settings.collection_reminder_after === undefined
        ? "half_hold"
        : settings.collection_reminder_after === false
          ? null
          : durationMs(settings.collection_reminder_after),
    sendContent: settings.send_content,
    timeZone: settings.time_zone ?? null,
    locale: settings.locale ?? null,
    statusEvents: new StatusEvents(statusTable, settings.status_events),
    smsChannel: settings.sms_channel ?? null,
    merchantTo: [...new Set(settings.merchant_to.map((a) => a.toLowerCase()))],
    words: buildWords(settings.text as TextOption | undefined, settings.locale ?? "en-GB"),
    shopName: settings.shop_name ?? null,
    orderUrl: settings.order_url ?? null,
    shipmentsNoNotification: settings.shipments_no_notification,
    requireMessageId: settings.require_message_id ?? null,
  }
}
