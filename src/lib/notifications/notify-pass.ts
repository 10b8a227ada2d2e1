/**
 * One pass over a task's messages (decisions 45 to 47, 59 and 60): each due step on each of its channels, in the
 * message's language, sent through the caller's `io` once under its key, and what the row keeps of it. */
import { withHistoryEntry } from "../tracking/task-history"
import { errorMessage } from "../support/error-message"
import { normalisePhoneNumber } from "../address/phone-number"
import { type DueDelivery, MAX_SHOPPER_MESSAGES, type NotifiableTask, planNotifications } from "./due-notifications"
import {
  type LastmileNotificationData,
  type NotificationFacts,
  type QuietSource,
  notificationData,
  withoutCollectionCode,
} from "./notification-data"
import {
  MAX_SEND_ATTEMPTS,
  type NotificationRecord,
  readNotificationRecord,
  withFailure,
  withSent,
  withSkipped,
} from "./notification-record"
import {
  type RenderedNotification,
  renderNotification,
  renderSms,
  withTitle,
  withCollectionQr,
} from "./render-notification"
import { type Words, catalogueFor, matchLocale } from "./catalogues/catalogues"
import type { LastmileNotificationEvent } from "./notification-events"
import type { ResolvedNotificationOptions } from "./notification-options"

export interface SentTaskNotifications {
  /** The keys of the messages sent, failed or skipped by this run. */
  sent: string[]
  failed: string[]
  skipped: string[]
  /** Why nothing was looked at, when nothing was. */
  not_run?: string
}

/** A message as Medusa's Notification Module is handed it. */
export interface OutgoingMessage {
  to: string
  channel: string
  template: string
  data: LastmileNotificationData
  /** The words: subject, text and HTML for an email or the bell; the text alone for an SMS. */
  content: Partial<RenderedNotification> | null
  trigger_type: string
  resource_type: "order"
  resource_id: string
  /** `lastmile:<task row>:<step>` (and `|sms`, `|to:<address>` for a step's other channels): one message each. */
  idempotency_key: string
}

export interface NotifyIo {
  canNotifyOn(channel: string): boolean
  readFacts(events: LastmileNotificationEvent[]): Promise<NotificationFacts>
  /** Sends once under the message's key; resolves to the notification's id, rejects when it was not sent. */
  send(message: OutgoingMessage): Promise<string | undefined>
}

/** The task row as the pass reads it. */
export type NotifyRow = NotifiableTask & {
  notifications: unknown
  notify_at: Date | string | null
  status_history: { entries?: unknown[] } | null
}

/** What the row keeps of the pass, or null when nothing changed. */
export type NotifyUpdate = {
  notifications: NotificationRecord
  notify_at: Date | null
  status_history?: { entries: unknown[] }
} | null

export interface PassInput {
  /** The shopper's messages wait until then (a fulfillment whose creator may still say `no_notification`). */
  holdShopperUntil?: Date | null
  /** The fulfillment was created with `no_notification: true` (Medusa keeps that only in its event). */
  fulfillmentQuiet?: boolean
}

const QUIET_WORDS: Record<QuietSource, string> = {
  order: "the order",
  return: "the return",
  exchange: "the exchange",
  claim: "the claim",
  fulfillment: "the fulfillment",
}

/** The words a message is written in: the order's locale for the shopper (else the store's), the store's for the merchant. */
export function wordsFor(
  options: Pick<ResolvedNotificationOptions, "words" | "locale">,
  storeLocale: string | null
): Words {
  const available = Object.keys(options.words.catalogues)
  const defaultLocale = options.locale ?? matchLocale(storeLocale, available) ?? options.words.defaultLocale
  return { ...options.words, defaultLocale }
}

export async function notifyPass(
  row: NotifyRow,
  options: ResolvedNotificationOptions,
  now: Date,
  io: NotifyIo,
  input: PassInput = {}
): Promise<{ outcome: SentTaskNotifications; update: NotifyUpdate }> {
  let record = readNotificationRecord(row.notifications)
  const outcome: SentTaskNotifications = { sent: [], failed: [], skipped: [] }
  let changedRecord = false
  if (input.fulfillmentQuiet && !record.quiet) {
    record = { ...record, quiet: { source: "fulfillment", at: now.toISOString() } }
    changedRecord = true
  }
  const plan = planNotifications(row, record, options, now, { holdShopperUntil: input.holdShopperUntil })
  let history: { entries?: unknown[] } | null = row.status_history
  const skip = (delivery: DueDelivery | string, reason: string) => {
    const key = typeof delivery === "string" ? delivery : delivery.delivery_key
    record = withSkipped(record, key, reason, now)
    outcome.skipped.push(key)
  }
  plan.stale.forEach((d) => skip(d, "reached too long before it could be sent"))
  plan.capped.forEach((d) => skip(d, `the task has told its shopper ${MAX_SHOPPER_MESSAGES} times already`))
  plan.superseded.forEach((key) => skip(key, "the task moved on before it could be sent"))
  // A channel nobody handles sends nothing (the boot log said so); its messages wait for a provider.
  const due = plan.due.filter((d) => io.canNotifyOn(d.channel))
  const read = due.length
    ? await io.readFacts([...new Set(due.map((d) => d.event))]).then(
        (facts) => ({ facts }),
        (error: unknown) => ({ error })
      )
    : null
  for (const delivery of due) {
    if (!read || "error" in read) {
      record = withFailure(
        record,
        delivery.delivery_key,
        `the order could not be read: ${errorMessage(read?.error)}`,
        now
      )
      outcome.failed.push(delivery.delivery_key)
      continue
    }
    const { facts } = read
    const quiet: QuietSource | null = record.quiet?.source ?? facts.quiet ?? null
    if (delivery.audience === "shopper" && quiet) {
      skip(delivery, `the merchant turned notifications off for ${QUIET_WORDS[quiet]} (no_notification)`)
      continue
    }
    const to = recipientOf(delivery, facts)
    if (!to.ok) {
      skip(delivery, to.reason)
      continue
    }
    const words = wordsFor(options, facts.store_locale ?? null)
    const requested = delivery.audience === "shopper" ? (facts.order.locale ?? null) : null
    const { locale, catalogue } = catalogueFor(words, requested)
    const storeZone = facts.store?.hours?.time_zone ?? null
    const clock = {
      timeZone: options.timeZone ?? storeZone ?? "UTC",
      utc: !options.timeZone && !storeZone,
      locale,
      now,
      phrases: catalogue.phrases,
    }
    let data: LastmileNotificationData
    let content: OutgoingMessage["content"]
    try {
      data = withTitle(notificationData(facts, delivery, clock), words)
      if (delivery.via === "email") {
        data = await withCollectionQr(data)
      }
      const sms = delivery.via === "sms" ? renderSms(data, words) : null
      content = !options.sendContent
        ? null
        : delivery.via === "sms"
          ? sms
            ? { text: sms }
            : null
          : renderNotification(data, words)
      if (delivery.via === "sms" && !sms) {
        skip(delivery, "the message has no words for a text message")
        continue
      }
    } catch (error) {
      record = withFailure(
        record,
        delivery.delivery_key,
        `the message could not be written: ${errorMessage(error)}`,
        now
      )
      outcome.failed.push(delivery.delivery_key)
      continue
    }
    const template = options.templates[delivery.event] + (delivery.via === "sms" ? "-sms" : "")
    try {
      const id = await io.send({
        to: to.value,
        channel: delivery.channel,
        template,
        data: content ? withoutCollectionCode(data) : data,
        content,
        trigger_type: `lastmile.${delivery.event}`,
        resource_type: "order",
        resource_id: facts.order.id,
        idempotency_key: `lastmile:${row.id}:${delivery.delivery_key}`,
      })
      record = withSent(record, delivery.delivery_key, {
        at: now.toISOString(),
        channel: delivery.channel,
        template,
        ...(id ? { notification_id: id } : {}),
      })
      outcome.sent.push(delivery.delivery_key)
    } catch (error) {
      record = withFailure(record, delivery.delivery_key, errorMessage(error), now)
      outcome.failed.push(delivery.delivery_key)
      // The merchant reads it in the order's Lastmile panel: at the first failure, and when the attempts run out.
      const failed = record.failed[delivery.delivery_key]
      if (failed.attempts === 1 || failed.next_at === null) {
        history = withHistoryEntry(history, failureEntry(record, delivery, data.title))
      }
    }
  }
  const next = planNotifications(row, record, options, now, { holdShopperUntil: input.holdShopperUntil }).next_check_at
  const nextAt = next ? new Date(next) : null
  const unchanged = !changedRecord && !outcome.sent.length && !outcome.failed.length && !outcome.skipped.length
  const sameLook = (nextAt?.getTime() ?? null) === (row.notify_at ? new Date(row.notify_at).getTime() : null)
  if (unchanged && sameLook) {
    return { outcome, update: null }
  }
  const changedHistory = history !== row.status_history ? { status_history: history as { entries: unknown[] } } : {}
  return { outcome, update: { notifications: record, notify_at: nextAt, ...changedHistory } }
}

type Recipient = { ok: true; value: string } | { ok: false; reason: string }

/** Who a notification goes to: the order's email, its shipping phone in E.164, the bell (""), a merchant's address. */
export function recipientOf(delivery: Pick<DueDelivery, "via" | "address">, facts: NotificationFacts): Recipient {
  switch (delivery.via) {
    case "email": {
      const email = facts.order.email?.trim()
      return email ? { ok: true, value: email } : { ok: false, reason: "the order has no email" }
    }
    case "sms": {
      const phone = normalisePhoneNumber(facts.order.phone, facts.order.shipping_address?.country_code)
      return phone.ok
        ? { ok: true, value: phone.e164 }
        : { ok: false, reason: `the order has no phone number a text can go to (${phone.reason})` }
    }
    case "feed":
      return { ok: true, value: "" }
    case "merchant_email":
      return delivery.address ? { ok: true, value: delivery.address } : { ok: false, reason: "no address" }
  }
}

/** The task's history entry of a failed send: the first failure, and the last attempt. */
function failureEntry(record: NotificationRecord, delivery: DueDelivery, title: string) {
  const failed = record.failed[delivery.delivery_key]
  const channel = delivery.channel
  const detail =
    failed.next_at === null
      ? `The ${channel} message “${title}” was not sent after ${MAX_SEND_ATTEMPTS} attempts: ${failed.error}`
      : `The ${channel} message “${title}” could not be sent (attempt ${failed.attempts} of ${MAX_SEND_ATTEMPTS}; retried from ${failed.next_at}): ${failed.error}`
  return { value: "notification failed", detail }
}

/**
 * What sending uses of the Notification Module: its generated list, update and delete, which 2.21's interface leaves
 * out. Medusa 2.21 re-sends a key whose row failed but then updates a row id it never created, so the call throws after
 * the provider sent it: a retry removes the failed row first and creates the message again under the same key.
 */
export interface NotificationCalls {
  createNotifications(
    data: OutgoingMessage
  ): Promise<{ id: string; external_id?: string | null; status?: string } | undefined>
  listNotifications(
    filters: { idempotency_key: string },
    config: { select: string[] }
  ): Promise<{ id: string; status: string; external_id?: string | null }[]>
  updateNotifications(data: { id: string; status: "failure" }): Promise<unknown>
  deleteNotifications(ids: string[]): Promise<void>
}

/** A provider answered without saying it sent the message (no message id, where its channel needs one). */
export class NotDeliveredError extends Error {
  constructor(readonly channel: string) {
    super(
      `the provider of the "${channel}" channel answered without a message id, so nothing says the message was sent ` +
        "(notifications.require_message_id)"
    )
  }
}

/** `notifications.order_url` for an order: its `{order_id}` filled in. */
export function orderUrlOf(template: string | null, orderId: string): string | null {
  return template ? template.replaceAll("{order_id}", encodeURIComponent(orderId)) : null
}

/**
 * Sends a message once under its key. A row that did not fail was sent (or is being sent) by a run that lost its
 * record: never twice. Where the channel's provider must answer with a message id (decision 61), an answer without one
 * marks Medusa's row failed (so a retry sends it again) and rejects.
 */
export async function sendOnce(
  notifications: NotificationCalls,
  message: OutgoingMessage,
  requireMessageId: boolean
): Promise<string | undefined> {
  const [earlier] = await notifications.listNotifications(
    { idempotency_key: message.idempotency_key },
    { select: ["id", "status", "external_id"] }
  )
  if (earlier && earlier.status !== "failure" && (!requireMessageId || earlier.external_id)) {
    return earlier.id
  }
  if (earlier) {
    await notifications.deleteNotifications([earlier.id])
  }
  const created = await notifications.createNotifications(message)
  if (requireMessageId && created && !created.external_id) {
    await notifications.updateNotifications({ id: created.id, status: "failure" })
    throw new NotDeliveredError(message.channel)
  }
  return created?.id
}
