/**
 * Sends a message once under its key through the Notification Module the caller hands in, and tells an answer that
 * says nothing was sent from one that was (decisions 45 and 61).
 */
import type { OutgoingMessage } from "./notify-pass"

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
