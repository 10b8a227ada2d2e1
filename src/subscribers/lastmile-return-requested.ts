/** Books the service's return task for a return that uses the lastmile-return option. */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { bookTask } from "../workflows/book-task/run"

export default async function lastmileReturnRequested({
  event,
  container,
}: SubscriberArgs<{ order_id: string; return_id: string }>): Promise<void> {
  // Never throws: a failure is recorded on the task, and retried or shown to the merchant.
  await bookTask(container, { kind: "return", return_id: event.data.return_id })
}

export const config: SubscriberConfig = {
  event: "order.return_requested",
  context: { subscriberId: "lastmile-return-requested" },
}
