/**
 * Settings → Lastmile's Notifications section (decision 61): what the plugin sends, on which channel and provider, and
 * the test of every message, written from a sample order as a real one would be.
 */
import type { NotificationChannelView, NotificationsOverview } from "../contracts/admin-api"
import { type Words, catalogueFor } from "./catalogues/catalogues"
import { SMS_EVENTS } from "./due-notifications"
import { type NotificationFacts, notificationData } from "./notification-data"
import { type LastmileNotificationEvent, type ShopperEvent, audienceOf } from "./notification-events"
import type { ResolvedNotificationOptions } from "./notification-options"
import type { ChannelProvider } from "./notification-channels"
import type { OutgoingMessage } from "./notify-pass"
import { renderNotification, renderSms, withTitle, withCollectionQr } from "./render-notification"
import { readOpeningHours } from "../collection/store-hours"

type Options = ResolvedNotificationOptions

/** The page's view of the plugin's messages. */
export function notificationsOverview(
  options: Options,
  providers: ReadonlyMap<string, ChannelProvider>,
  requiresMessageId: (channel: string) => boolean,
  store: { locales: string[]; defaultLocale: string }
): NotificationsOverview {
  const view = (role: NotificationChannelView["role"], channel: string | null): NotificationChannelView => {
    const provider = channel ? providers.get(channel) : undefined
    return {
      role,
      channel,
      provider: provider ? { id: provider.id, resolve: provider.resolve, name: provider.name } : null,
      requires_message_id: channel ? requiresMessageId(channel) : false,
      ...(role === "merchant_email" ? { recipients: options.merchantTo } : {}),
    }
  }
  return {
    enabled: options.enabled,
    channels: [
      view("shopper_email", options.channel),
      view("shopper_sms", options.smsChannel),
      view("merchant_feed", options.merchantChannel),
      view("merchant_email", options.merchantTo.length ? options.channel : null),
    ],
    events: Object.entries(options.templates).map(([event, template]) => ({
      event,
      audience: audienceOf(event as LastmileNotificationEvent),
      on: options.enabled && options.events.has(event as LastmileNotificationEvent),
      template,
      by_sms: !!options.smsChannel && SMS_EVENTS.includes(event as ShopperEvent),
    })),
    locales: { default: store.defaultLocale, with_words: Object.keys(options.words.catalogues), store: store.locales },
    time_zone: options.timeZone,
    send_content: options.sendContent,
  }
}

const DAY = 86_400_000

/** A sample order, as a message about a real one reads it: a delivery tomorrow, or a collection at a London store. */
export function sampleFacts(event: LastmileNotificationEvent, shopName: string | null, now: Date): NotificationFacts {
  const mode =
    event.startsWith("collection") || event === "merchant_not_collected"
      ? "collection"
      : event.startsWith("return")
        ? "return"
        : "delivery"
  const tomorrow = new Date(now.getTime() + DAY).toISOString().slice(0, 10)
  return {
    task: {
      id: "lmtask_test",
      kind: mode === "return" ? "return" : "delivery",
      mode,
      origin: mode === "return" ? "return" : "order",
      status: event === "merchant_booking_failed" ? "failed" : "booked",
      service_status: event === "merchant_task_cancelled" ? "CANCELLED" : "OUT_FOR_DELIVERY",
      tracking_id: "TEST1001",
      tracking_url: "https://example.com/track/TEST1001",
      attempts: 3,
      last_error: "This is a test: nothing was booked",
      next_attempt_at: new Date(now.getTime() + 3_600_000).toISOString(),
    },
    order: {
      id: "order_test",
      display_id: 1001,
      email: "shopper@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      shipping_address: { address_1: "10 Downing Street", city: "London", postal_code: "SW1A 2AA", country_code: "gb" },
      phone: null,
      locale: null,
    },
    rate:
      mode === "collection"
        ? { code: "SVC_COL", name: "Brixton store", window: { from: now.toISOString(), to: `${tomorrow}T18:00:00Z` } }
        : {
            code: "NEXT_DAY",
            name: "Next day delivery",
            window: { from: `${tomorrow}T08:00:00Z`, to: `${tomorrow}T20:00:00Z` },
          },
    store:
      mode === "collection"
        ? {
            name: "Brixton store",
            address: { address_1: "4 Electric Avenue", city: "London", postal_code: "SW9 8JX", country_code: "gb" },
            hours: readOpeningHours({ monday: "09:00-18:00", tuesday: "09:00-18:00", saturday: "10:00-16:00" }),
            instructions: "Collection desk at the back of the store, by the fitting rooms.",
          }
        : null,
    collection:
      mode === "collection"
        ? {
            code: "ACE479",
            hold_days: 7,
            ready_at: new Date(now.getTime() - 2 * DAY).toISOString(),
            collect_by: new Date(now.getTime() + 5 * DAY).toISOString(),
            extensions:
              event === "collection_extended"
                ? [
                    {
                      at: now.toISOString(),
                      days: 3,
                      collect_by: new Date(now.getTime() + 8 * DAY).toISOString(),
                      actor_id: null,
                    },
                  ]
                : [],
            handed_over: null,
            wrong_codes: [],
          }
        : null,
    admin_url: "/app/orders/order_test",
    shop_name: shopName,
    order_url: null,
    items: [{ title: "Medusa Tee", quantity: 1 }],
  }
}

/** Where the test goes: the address and phone the merchant typed (the phone already in E.164). */
export interface TestTarget {
  email: string | null
  phone: string | null
}

/** One test message: what to send, and on which of the message's roads. */
export interface TestMessage {
  via: "email" | "sms" | "merchant_email"
  message: OutgoingMessage
}

/**
 * Every message that is on, written from the sample order in the store's words and time: the shopper's and the
 * merchant's by email to the address, the texts to the phone.
 */
export async function testMessages(
  options: Options,
  words: Words,
  target: TestTarget,
  now: Date,
  shopName: string | null
): Promise<TestMessage[]> {
  const { locale, catalogue } = catalogueFor(words, null)
  const clock = {
    timeZone: options.timeZone ?? "Europe/London",
    locale,
    now,
    phrases: catalogue.phrases,
  }
  const messages: TestMessage[] = []
  for (const event of Object.keys(options.templates) as LastmileNotificationEvent[]) {
    if (!options.events.has(event)) {
      continue
    }
    const facts = sampleFacts(event, shopName, now)
    const problem = event.endsWith("problem") ? "FAILED_ATTEMPT" : null
    const waited = event === "collection_reminder" || event === "merchant_not_collected"
    const step = { event, at: now.toISOString(), status: problem, since: waited ? facts.collection?.ready_at : null }
    const data = { ...withTitle(notificationData(facts, step, clock), words), test: true }
    const base = {
      data,
      trigger_type: "lastmile.test",
      resource_type: "order" as const,
      resource_id: facts.order.id,
    }
    const key = `lastmile:test:${now.getTime()}:${event}`
    const template = options.templates[event]
    if (target.email) {
      const via = audienceOf(event) === "merchant" ? ("merchant_email" as const) : ("email" as const)
      const email = await withCollectionQr(data)
      messages.push({
        via,
        message: {
          ...base,
          data: email,
          to: target.email,
          channel: options.channel,
          template,
          content: options.sendContent ? renderNotification(email, words) : null,
          idempotency_key: `${key}|${via}`,
        },
      })
    }
    const sms = options.smsChannel && SMS_EVENTS.includes(event as ShopperEvent) ? renderSms(data, words) : null
    if (target.phone && options.smsChannel && sms) {
      messages.push({
        via: "sms",
        message: {
          ...base,
          to: target.phone,
          channel: options.smsChannel,
          template: `${template}-sms`,
          content: options.sendContent ? { text: sms } : null,
          idempotency_key: `${key}|sms`,
        },
      })
    }
  }
  return messages
}
