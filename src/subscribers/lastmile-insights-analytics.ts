/**
 * Forwards delivery insights to Medusa's Analytics Module when the app has one (decision 54): offers once per cart and
 * day, tasks booked, parcels delivered or collected, ids hashed.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { TaskRowsService } from "../modules/lastmile/services/task-rows"
import { OFFERS_COUNTED_EVENT } from "../modules/lastmile/services/offer-counting"
import { TASK_STATUS_CHANGED_EVENT } from "../lib/tracking/task-sync"
import { analyticsModule, trackInsights } from "../lib/insights/medusa/analytics"
import { type InsightEvent, arrivedEvent, bookedEvent, offeredEvents } from "../lib/insights/insight-events"
import type { CountedCart } from "../lib/insights/offer-tally"

const FULFILLMENT_CREATED = "order.fulfillment_created"

type EventData = {
  /** The carts counted for the first time on their day (`OfferCountingService`'s announcement). */
  offers?: CountedCart[]
  fulfillment_id?: string
  id?: string
  tracking_state?: string
  previous_tracking_state?: string
}

export default async function lastmileInsightsAnalytics({
  event,
  container,
}: SubscriberArgs<EventData>): Promise<void> {
  if (!analyticsModule(container)) {
    return
  }
  const tasks = TaskRowsService.of(container)
  const data = event.data
  let events: (InsightEvent | null)[] = []
  if (event.name === OFFERS_COUNTED_EVENT) {
    events = offeredEvents(data.offers ?? [])
  } else if (event.name === FULFILLMENT_CREATED && data.fulfillment_id) {
    const rows = await tasks.list({ fulfillment_id: data.fulfillment_id, status: "booked" }, { take: 1 })
    events = rows.map(bookedEvent)
  } else if (
    event.name === TASK_STATUS_CHANGED_EVENT &&
    data.id &&
    data.tracking_state === "delivered" &&
    data.previous_tracking_state !== "delivered"
  ) {
    events = [arrivedEvent(await tasks.retrieve(data.id))]
  }
  await trackInsights(
    container,
    events.filter((e): e is InsightEvent => e !== null)
  )
}

export const config: SubscriberConfig = {
  event: [OFFERS_COUNTED_EVENT, FULFILLMENT_CREATED, TASK_STATUS_CHANGED_EVENT],
  context: { subscriberId: "lastmile-insights-analytics" },
}
