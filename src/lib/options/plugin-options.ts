/**
 * The plugin's own options (`plugins: [{ resolve: "medusa-plugin-lastmile", options }]`),
 * which Medusa hands to the plugin's module. The provider has its own options.
 */
import { z } from "zod"
import { isTimeZone, serverTimeZone } from "../support/time-zone"
import { StatusTable, TRACKING_PHASES, type TrackingPhase } from "../tracking/status-table"
import {
  type LastmileNotificationOptions,
  type ResolvedNotificationOptions,
  notificationOptionsSchema,
  resolveNotificationOptions,
} from "../notifications/notification-options"

export interface LastmilePluginOptions {
  /** When to book: when the order is placed (default), or when the merchant creates the fulfillment. */
  booking_trigger?: "order_placed" | "fulfillment"
  /** Service status → phase (awaiting, shipped, delivered, exception, cancelled), over the defaults. */
  status_map?: Record<string, TrackingPhase>
  /** How often an open task is re-read from the service by the polling job. Default 300; 0 turns polling off. */
  poll_interval_seconds?: number
  /** Tasks booked longer ago than this are no longer polled. Default 14. */
  poll_max_age_days?: number
  /** At most this many tasks are re-read per minute. Default 50. */
  poll_batch_size?: number
  /** Mark a return received in Medusa when its task is delivered. Default false. */
  mark_returns_received?: boolean
  /** The backend's public URL (`https://shop.example.com`), for the webhook URL the admin shows. */
  backend_url?: string
  /** Build that URL from X-Forwarded-Proto and X-Forwarded-Host when no URL is configured. Default false. */
  trust_forwarded_headers?: boolean
  /** The shopper's and the merchant's messages through Medusa's Notification Module; false turns them off. */
  notifications?: LastmileNotificationOptions | false
  /** Click and collect at the counter. */
  collection?: {
    /** How many open days a collection is held once ready, to the store's closing time on the last. Default 7. */
    hold_days?: number
  }
  /** Delivery insights (the admin's "Delivery insights" page and `GET /admin/lastmile/insights`). */
  insights?: {
    /** The store's time zone: days and weeks are counted in it. Default: the app's own (its `TZ`). */
    time_zone?: string
    /** Offer counters older than this many days are removed (daily). Default 400. */
    offer_retention_days?: number
    /** The unit of the service's `co2Savings` figure. Default "kg". */
    co2_unit?: "kg" | "g"
  }
}

export interface ResolvedPluginOptions {
  bookingTrigger: "order_placed" | "fulfillment"
  statusTable: StatusTable
  pollIntervalSeconds: number
  pollMaxAgeDays: number
  pollBatchSize: number
  markReturnsReceived: boolean
  /** The backend's public origin and path prefix, without a trailing slash. */
  backendUrl?: string
  trustForwardedHeaders: boolean
  notifications: ResolvedNotificationOptions
  collection: { holdDays: number }
  insights: { timeZone: string; offerRetentionDays: number; co2Unit: "kg" | "g" }
}

const schema = z.object({
  booking_trigger: z
    .enum(["order_placed", "fulfillment"], { error: 'booking_trigger must be "order_placed" or "fulfillment"' })
    .default("order_placed"),
  status_map: z
    .record(
      z.string().min(1),
      z.enum(TRACKING_PHASES as [TrackingPhase, ...TrackingPhase[]], {
        error: `status_map values must be one of ${TRACKING_PHASES.join(", ")}`,
      }),
      { error: 'status_map must map service statuses to phases, like { "OUT_FOR_DELIVERY": "shipped" }' }
    )
    .default({}),
  poll_interval_seconds: z
    .number({ error: "poll_interval_seconds must be a number of seconds" })
    .int("poll_interval_seconds must be whole seconds")
    .min(0, "poll_interval_seconds must be 0 (off) or more")
    .default(300),
  poll_max_age_days: z
    .number({ error: "poll_max_age_days must be a number of days" })
    .positive("poll_max_age_days must be more than 0")
    .default(14),
  poll_batch_size: z
    .number({ error: "poll_batch_size must be a number" })
    .int("poll_batch_size must be a whole number")
    .min(1, "poll_batch_size must be at least 1")
    .max(1000, "poll_batch_size must be at most 1000")
    .default(50),
  mark_returns_received: z.boolean({ error: "mark_returns_received must be true or false" }).default(false),
  backend_url: z
    .string({ error: "backend_url must be the backend's public URL, like https://shop.example.com" })
    .refine(isPublicUrl, "backend_url must be an absolute http(s) URL without credentials, query or fragment")
    .optional(),
  trust_forwarded_headers: z.boolean({ error: "trust_forwarded_headers must be true or false" }).default(false),
  notifications: notificationOptionsSchema,
  collection: z
    .object(
      {
        hold_days: z
          .number({ error: "collection.hold_days must be a number of days" })
          .int("collection.hold_days must be whole days")
          .min(1, "collection.hold_days must be at least 1")
          .max(60, "collection.hold_days must be at most 60")
          .default(7),
      },
      { error: "collection must be an object of options" }
    )
    .default({ hold_days: 7 }),
  insights: z
    .object(
      {
        time_zone: z
          .string({ error: 'insights.time_zone must be a time zone name, like "Europe/London"' })
          .refine(isTimeZone, 'insights.time_zone must be a time zone name, like "Europe/London"')
          .optional(),
        offer_retention_days: z
          .number({ error: "insights.offer_retention_days must be a number of days" })
          .int("insights.offer_retention_days must be whole days")
          .min(1, "insights.offer_retention_days must be at least 1")
          .default(400),
        co2_unit: z.enum(["kg", "g"], { error: 'insights.co2_unit must be "kg" or "g"' }).default("kg"),
      },
      { error: "insights must be an object of options" }
    )
    .default({ offer_retention_days: 400, co2_unit: "kg" }),
})

function isPublicUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      !url.username &&
      !url.password &&
      !url.search &&
      !url.hash
    )
  } catch {
    return false
  }
}

/** Whether orders are booked when placed (by the order.placed subscriber and the reconciliation job), not when the merchant fulfils them. */
export function booksOnPlacement(options: Pick<ResolvedPluginOptions, "bookingTrigger">): boolean {
  return options.bookingTrigger === "order_placed"
}

/** Bad plugin options; the module turns it into Medusa's INVALID_DATA at boot. */
export class InvalidPluginOptionsError extends Error {
  constructor(readonly problems: string) {
    super(`medusa-plugin-lastmile: invalid plugin options: ${problems}`)
  }
}

export function resolvePluginOptions(options: LastmilePluginOptions | undefined): ResolvedPluginOptions {
  const defined = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined))
  const result = schema.safeParse(defined)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => issue.message).join("; ")
    throw new InvalidPluginOptionsError(problems)
  }
  const o = result.data
  const statusTable = new StatusTable(o.status_map)
  return {
    bookingTrigger: o.booking_trigger,
    statusTable,
    pollIntervalSeconds: o.poll_interval_seconds,
    pollMaxAgeDays: o.poll_max_age_days,
    pollBatchSize: o.poll_batch_size,
    markReturnsReceived: o.mark_returns_received,
    backendUrl: o.backend_url === undefined ? undefined : new URL(o.backend_url).href.replace(/\/+$/, ""),
    trustForwardedHeaders: o.trust_forwarded_headers,
    notifications: resolveNotificationOptions(o.notifications, statusTable),
    collection: { holdDays: o.collection.hold_days },
    insights: {
      timeZone: o.insights.time_zone ?? serverTimeZone(),
      offerRetentionDays: o.insights.offer_retention_days,
      co2Unit: o.insights.co2_unit,
    },
  }
}

/**
 * The store's zone where the service's hours name none: the messages' zone when set, else the insights' (which is the
 * server's unless set), so a hold, a readiness and a message count one store's days alike.
 */
export function storeTimeZoneOf(options: Pick<ResolvedPluginOptions, "notifications" | "insights">): string {
  return options.notifications.timeZone ?? options.insights.timeZone
}
