/**
 * The plugin option `notifications`, validated at boot with one message per bad option; `notifications: false` turns
 * every message off.
 */
import { z } from "zod"
import type { StatusTable } from "../tracking/status-table"
import { isTimeZone } from "../support/time-zone"
import { type LastmileNotificationEvent, NOTIFICATION_EVENTS, defaultTemplateOf } from "./notification-events"
import { STATUS_EVENTS, type StatusEvent, StatusEvents } from "./status-events"

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
  /** How long a ready collection waits before the shopper is reminded and the merchant told: "2d" (default), "36h", "90m"; false: never. */
  collection_reminder_after?: string | false
  /** Pass the plugin's rendered subject, text and HTML as `content`. Default true; false leaves the message to the provider's templates. */
  send_content?: boolean
  /** The IANA time zone of the times in messages. Default: the store's, when the service gives its hours, else the server's. */
  time_zone?: string
  /** The English dates are written in: "en-GB" (default, "Tuesday 3 December") or another `en` locale ("en-US": "Tuesday, December 3"). */
  locale?: string
  /** Service status → step of the messages (out_for_delivery, ready_for_collection, problem, none), over the defaults. */
  status_events?: Record<string, StatusEvent>
}

export interface ResolvedNotificationOptions {
  enabled: boolean
  channel: string
  merchantChannel: string
  events: ReadonlySet<LastmileNotificationEvent>
  templates: Readonly<Record<LastmileNotificationEvent, string>>
  /** Null: no reminder. */
  reminderAfterMs: number | null
  sendContent: boolean
  /** Null: the store's zone when known, else the server's. */
  timeZone: string | null
  locale: string
  statusEvents: StatusEvents
}

export const DEFAULT_REMINDER_AFTER = "2d"

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

function isEnglishLocale(value: string): boolean {
  try {
    return /^en(-|$)/i.test(value) && Intl.DateTimeFormat.supportedLocalesOf([value]).length === 1
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

const settingsSchema = z.object(
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
      .default(DEFAULT_REMINDER_AFTER),
    send_content: z.boolean({ error: "notifications.send_content must be true or false" }).default(true),
    time_zone: z
      .string({ error: 'notifications.time_zone must be an IANA time zone, like "Europe/London"' })
      .refine(isTimeZone, { error: 'notifications.time_zone must be an IANA time zone, like "Europe/London"' })
      .optional(),
    locale: z
      .string({ error: 'notifications.locale must be an English locale, like "en-GB" or "en-US"' })
      .refine(isEnglishLocale, { error: 'notifications.locale must be an English locale, like "en-GB" or "en-US"' })
      .default("en-GB"),
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
    reminderAfterMs:
      settings.collection_reminder_after === false ? null : durationMs(settings.collection_reminder_after),
    sendContent: settings.send_content,
    timeZone: settings.time_zone ?? null,
    locale: settings.locale,
    statusEvents: new StatusEvents(statusTable, settings.status_events),
  }
}
