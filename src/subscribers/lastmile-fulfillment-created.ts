/**
 * A fulfillment was created: its task's messages to the shopper go now, unless whoever created it said
 * `no_notification` (Medusa keeps that only in this event: decision 60).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { notifyFulfillmentCreated } from "../workflows/notify-task/run"

export default async function lastmileFulfillmentCreated({
  event,
  container,
}: SubscriberArgs<{ order_id: string; fulfillment_id: string; no_notification?: boolean }>): Promise<void> {
  await notifyFulfillmentCreated(container, event.data)
}

export const config: SubscriberConfig = { event: "order.fulfillment_created" }
