/**
 * One pass over a task's messages (decisions 45 to 47): what is due from its row, sent through the caller's `io`, and
 * the record, history and next look the row keeps.
 */
import { withHistoryEntry } from "../tracking/task-history"
import { errorMessage } from "../support/error-message"
import { type DueMessage, type NotifiableTask, planNotifications } from "./due-notifications"
import { type LastmileNotificationData, type NotificationFacts, notificationData } from "./notification-data"
import {
  MAX_SEND_ATTEMPTS,
  type NotificationRecord,
  readNotificationRecord,
  withFailure,
  withSent,
  withSkipped,
} from "./notification-record"
import { type RenderedNotification, renderNotification, withTitle } from "./render-notification"
import { serverTimeZone } from "../support/time-zone"
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
  content: RenderedNotification | null
  trigger_type: string
  resource_type: "order"
  resource_id: string
  /** `lastmile:<task row>:<step>`: one message per task and step. */
  idempotency_key: string
}

export interface NotifyIo {
  canNotifyOn(channel: string): boolean
  readFacts(events: LastmileNotificationEvent[]): Promise<NotificationFacts>
  /** Sends once under the message's key; resolves to the notification's id, rejects when the provider failed. */
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

export async function notifyPass(
  row: NotifyRow,
  options: ResolvedNotificationOptions,
  now: Date,
  io: NotifyIo
): Promise<{ outcome: SentTaskNotifications; update: NotifyUpdate }> {
  let record = readNotificationRecord(row.notifications)
  const plan = planNotifications(row, record, options, now)
  const outcome: SentTaskNotifications = { sent: [], failed: [], skipped: [] }
  let history: { entries?: unknown[] } | null = row.status_history
  for (const stale of plan.stale) {
    record = withSkipped(record, stale.key, "reached too long before it could be sent", now)
    outcome.skipped.push(stale.key)
  }
  for (const key of plan.superseded) {
    record = withSkipped(record, key, "the task moved on before it could be sent", now)
    outcome.skipped.push(key)
  }
  // A channel nobody handles sends nothing (the boot log said so); its messages wait for a provider.
  const due = plan.due.filter((m) => io.canNotifyOn(channelOf(m, options)))
  const read = due.length
    ? await io.readFacts(due.map((m) => m.event)).then(
        (facts) => ({ facts }),
        (error: unknown) => ({ error })
      )
    : null
  for (const message of due) {
    const channel = channelOf(message, options)
    if (!read || "error" in read) {
      record = withFailure(record, message.key, `the order could not be read: ${errorMessage(read?.error)}`, now)
      outcome.failed.push(message.key)
      continue
    }
    const { facts } = read
    const { order, store } = facts
    const to = message.audience === "shopper" ? order.email?.trim() : ""
    if (to === undefined || to === null || (message.audience === "shopper" && !to)) {
      record = withSkipped(record, message.key, "the order has no email", now)
      outcome.skipped.push(message.key)
      continue
    }
    const clock = {
      timeZone: options.timeZone ?? store?.hours?.time_zone ?? serverTimeZone(),
      locale: options.locale,
      now,
    }
    const data = withTitle(notificationData(facts, message, clock, options.reminderAfterMs))
    const template = options.templates[message.event]
    try {
      const id = await io.send({
        to,
        channel,
        template,
        data,
        content: options.sendContent ? renderNotification(data) : null,
        trigger_type: `lastmile.${message.event}`,
        resource_type: "order",
        resource_id: order.id,
        idempotency_key: `lastmile:${row.id}:${message.key}`,
      })
      record = withSent(record, message.key, {
        at: now.toISOString(),
        channel,
        template,
        ...(id ? { notification_id: id } : {}),
      })
      outcome.sent.push(message.key)
    } catch (error) {
      record = withFailure(record, message.key, errorMessage(error), now)
      outcome.failed.push(message.key)
      // The merchant reads it in the order's Lastmile panel: at the first failure, and when the attempts run out.
      const failed = record.failed[message.key]
      if (failed.attempts === 1 || failed.next_at === null) {
        history = withHistoryEntry(history, failureEntry(record, message, channel, data.title))
      }
    }
  }
  const next = planNotifications(row, record, options, now).next_check_at
  const nextAt = next ? new Date(next) : null
  const unchanged = !outcome.sent.length && !outcome.failed.length && !outcome.skipped.length
  const sameLook = (nextAt?.getTime() ?? null) === (row.notify_at ? new Date(row.notify_at).getTime() : null)
  if (unchanged && sameLook) {
    return { outcome, update: null }
  }
  const changedHistory = history !== row.status_history ? { status_history: history as { entries: unknown[] } } : {}
  return { outcome, update: { notifications: record, notify_at: nextAt, ...changedHistory } }
}

export function channelOf(message: DueMessage, options: ResolvedNotificationOptions): string {
  return message.audience === "shopper" ? options.channel : options.merchantChannel
}

/** The task's history entry of a failed send: the first failure, and the last attempt. */
function failureEntry(record: NotificationRecord, message: DueMessage, channel: string, title: string) {
  const failed = record.failed[message.key]
  const detail =
    failed.next_at === null
      ? `The ${channel} message “${title}” was not sent after ${MAX_SEND_ATTEMPTS} attempts: ${failed.error}`
      : `The ${channel} message “${title}” could not be sent (attempt ${failed.attempts} of ${MAX_SEND_ATTEMPTS}; retried from ${failed.next_at}): ${failed.error}`
  return { value: "notification failed", detail }
}
