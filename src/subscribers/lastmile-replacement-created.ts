/**
 * An exchange or a claim confirmed: its inbound items a return to book, its replacement a delivery to book now unless
 * the merchant books at fulfillment (decisions 13 and 15).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { bookReplacement } from "../workflows/book-task/run"

export default async function lastmileReplacementCreated({
  event,
  container,
}: SubscriberArgs<{ order_id: string; exchange_id?: string; claim_id?: string }>): Promise<void> {
  const reference = event.data.exchange_id ?? event.data.claim_id
  if (reference) {
    // Never throws: each booking's failure is recorded on its task, retried or shown to the merchant.
    await bookReplacement(container, event.data.order_id, reference)
  }
}

export const config: SubscriberConfig = {
  event: ["order.exchange_created", "order.claim_created"],
  context: { subscriberId: "lastmile-replacement-created" },
}
