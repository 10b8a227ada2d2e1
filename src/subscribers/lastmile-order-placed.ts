/** Books the lastmile delivery of a placed order (unless the merchant books at fulfillment). */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { bookTask } from "../workflows/book-task/run"
import { LASTMILE_MODULE } from "../modules/lastmile"
import { booksOnPlacement } from "../lib/options/plugin-options"
import type { LastmileModuleService } from "../modules/lastmile/service"

export default async function lastmileOrderPlaced({ event, container }: SubscriberArgs<{ id: string }>): Promise<void> {
  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  if (!booksOnPlacement(module.getPluginOptions())) {
    return
  }
  // Never throws: a failure is recorded on the task and retried by the lastmile-booking-retry job.
  await bookTask(container, { kind: "order", order_id: event.data.id })
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "lastmile-order-placed" },
}
