/** Books the service's return task for a return that uses the lastmile-return option. */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { bookReturn } from "../workflows/book-return/run"

export default async function lastmileReturnRequested({
  event,
  container,
}: SubscriberArgs<{ order_id: string; return_id: string }>): Promise<void> {
  // Never throws: a failure is recorded on the task, and retried or shown to the merchant.
  await bookReturn(container, event.data.return_id)
}

export const config: SubscriberConfig = {
  event: "order.return_requested",
  context: { subscriberId: "lastmile-return-requested" },
}
