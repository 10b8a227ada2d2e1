/** A cancelled order's unbooked lastmile tasks are closed, so nothing books them later. */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { closeCancelledOrderWorkflow } from "../workflows/close-cancelled-order"

export default async function lastmileOrderCanceled({
  event,
  container,
}: SubscriberArgs<{ id: string }>): Promise<void> {
  await closeCancelledOrderWorkflow(container).run({ input: { order_id: event.data.id } })
}

export const config: SubscriberConfig = {
  event: "order.canceled",
  context: { subscriberId: "lastmile-order-canceled" },
}
