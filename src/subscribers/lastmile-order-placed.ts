/** Books the lastmile delivery of a placed order (unless the merchant books at fulfillment). */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { bookTask } from "../workflows/book-task/run"
import { booksOnPlacement } from "../lib/options/plugin-options"
import { PluginSettingsService } from "../modules/lastmile/services/plugin-settings"

export default async function lastmileOrderPlaced({ event, container }: SubscriberArgs<{ id: string }>): Promise<void> {
  if (!booksOnPlacement(PluginSettingsService.of(container).options)) {
    return
  }
  // Never throws: a failure is recorded on the task and retried by the lastmile-booking-retry job.
  await bookTask(container, { kind: "order", order_id: event.data.id })
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "lastmile-order-placed" },
}
