/**
 * What the plugin keeps of a task's messages on its row (`notifications`): each sent, failed (and when to try again)
 * or skipped (and why), written only under the task's tracking lock (decision 45).
 */

export type SentMessage = {
  at: string
  channel: string
  template: string
  /** Medusa's notification id. */
  notification_id?: string
}

export type FailedMessage = {
  attempts: number
  error: string
  at: string
  /** When the next attempt is due; null once the attempts are used up. */
  next_at: string | null
}

export type NotificationRecord = {
  sent: Record<string, SentMessage>
  failed: Record<string, FailedMessage>
  skipped: Record<string, { at: string; reason: string }>
  /** The merchant said `no_notification` where Medusa keeps it nowhere (a fulfillment): the shopper is not told. */
  quiet?: { source: "fulfillment"; at: string }
}

/** A failed send is tried this many times in all, then left for the merchant (the task's history says so). */
export const MAX_SEND_ATTEMPTS = 5

/** Backoff between attempts: 1, 2, 4, 8 minutes. */
export function nextSendDelayMs(attempts: number): number {
  return 60_000 * 2 ** Math.max(0, attempts - 1)
}

/** The record a row holds, or an empty one (rows written before notifications, or with something else there). */
export function readNotificationRecord(value: unknown): NotificationRecord {
  const record = (value && typeof value === "object" ? value : {}) as Partial<NotificationRecord>
  const map = <T>(part: unknown): Record<string, T> =>
    part && typeof part === "object" && !Array.isArray(part) ? { ...(part as Record<string, T>) } : {}
  const quiet = record.quiet?.source === "fulfillment" ? { quiet: record.quiet } : {}
  return { sent: map(record.sent), failed: map(record.failed), skipped: map(record.skipped), ...quiet }
}

/** Whether a message needs no more sending: sent, skipped, or out of attempts. */
export function isSettled(record: NotificationRecord, key: string): boolean {
  return key in record.sent || key in record.skipped || (key in record.failed && record.failed[key].next_at === null)
}

/** Whether a message may be sent now: never settled, and any earlier failure's backoff is over. */
export function maySendNow(record: NotificationRecord, key: string, now: Date): boolean {
  if (isSettled(record, key)) {
    return false
  }
  const failed = record.failed[key]
  return !failed || (failed.next_at !== null && Date.parse(failed.next_at) <= now.getTime())
}

export function withSent(record: NotificationRecord, key: string, sent: SentMessage): NotificationRecord {
  const failed = { ...record.failed }
  delete failed[key]
  return { ...record, sent: { ...record.sent, [key]: sent }, failed }
}

export function withSkipped(record: NotificationRecord, key: string, reason: string, now: Date): NotificationRecord {
  return { ...record, skipped: { ...record.skipped, [key]: { at: now.toISOString(), reason } } }
}

/** One more failed attempt: retried after the backoff, until MAX_SEND_ATTEMPTS. */
export function withFailure(record: NotificationRecord, key: string, error: string, now: Date): NotificationRecord {
  const attempts = (record.failed[key]?.attempts ?? 0) + 1
  const next_at =
    attempts >= MAX_SEND_ATTEMPTS ? null : new Date(now.getTime() + nextSendDelayMs(attempts)).toISOString()
  return {
    ...record,
    failed: { ...record.failed, [key]: { attempts, error, at: now.toISOString(), next_at } },
  }
}
