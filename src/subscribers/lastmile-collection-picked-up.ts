/**
 * A collection marked picked up in Medusa's own dashboard (`delivery.created`): its task catches up as a hand-over
 * without the code, so nobody is told later that it was not collected (decision 65).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { catchUpMedusaPickUp } from "../workflows/hand-over-collection/run"

export default async function lastmileCollectionPickedUp({
  event,
  container,
}: SubscriberArgs<{ id?: string; no_notification?: boolean }>): Promise<void> {
  await catchUpMedusaPickUp(container, event.data)
}

export const config: SubscriberConfig = {
  event: "delivery.created",
  context: { subscriberId: "lastmile-collection-picked-up" },
}
