/** Books the service's return task for a return that uses the lastmile-return option. */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { bookReturn } from "../lib/booking/book-return"

export default async function lastmileReturnRequested({
  event,
  container,
}: SubscriberArgs<{ order_id: string; return_id: string }>): Promise<void> {
  await bookReturn(container, event.data.return_id)
}

export const config: SubscriberConfig = {
  event: "order.return_requested",
  context: { subscriberId: "lastmile-return-requested" },
}
