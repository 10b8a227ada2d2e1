/** Counts the lastmile options an order was placed with (delivery insights, "chosen"), and tells the Analytics Module. */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OfferCountingService } from "../modules/lastmile/services/offer-counting"
import { readOrderChoices } from "../lib/insights/medusa/option-catalogue"
import { trackInsights } from "../lib/insights/medusa/analytics"
import { chosenEvents } from "../lib/insights/insight-events"

export default async function lastmileInsightsOrderPlaced({
  event,
  container,
}: SubscriberArgs<{ id: string }>): Promise<void> {
  const placed = await readOrderChoices(container, event.data.id)
  if (!placed?.choices.length) {
    return
  }
  const counts = OfferCountingService.of(container)
  for (const choice of placed.choices) {
    counts.chosen({ at: placed.order.created_at, order_id: placed.order.id, ...choice })
  }
  await trackInsights(container, chosenEvents(placed.order, placed.choices))
}

export const config: SubscriberConfig = {
  event: "order.placed",
  context: { subscriberId: "lastmile-insights-order-placed" },
}
