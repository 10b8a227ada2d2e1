/**
 * Forwards delivery insights to Medusa's Analytics Module, when the app has
 * one: the options a cart was offered (once per cart and day), tasks booked
 * (a lastmile fulfillment created is one booked), parcels delivered or
 * collected, with the shopper's ids hashed. Without the module it returns at once.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { LASTMILE_MODULE } from "../modules/lastmile"
import type { LastmileModuleService } from "../modules/lastmile/service"
import { OFFERS_COUNTED_EVENT } from "../modules/lastmile/offer-counts"
import { TASK_STATUS_CHANGED_EVENT } from "../lib/tracking/task-sync"
import { analyticsModule, trackInsights } from "../lib/insights/medusa/analytics"
import { type InsightEvent, arrivedEvent, bookedEvent, offeredEvents } from "../lib/insights/insight-events"
import type { CountedCart } from "../lib/insights/offer-tally"

const FULFILLMENT_CREATED = "order.fulfillment_created"

type EventData = {
  /** The carts counted for the first time on their day (`OfferCounts`' announcement). */
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
  const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const data = event.data
  let events: (InsightEvent | null)[] = []
  if (event.name === OFFERS_COUNTED_EVENT) {
    events = offeredEvents(data.offers ?? [])
  } else if (event.name === FULFILLMENT_CREATED && data.fulfillment_id) {
    const rows = await tasks.listLastmileTasks({ fulfillment_id: data.fulfillment_id, status: "booked" }, { take: 1 })
    events = rows.map(bookedEvent)
  } else if (
    event.name === TASK_STATUS_CHANGED_EVENT &&
    data.id &&
    data.tracking_state === "delivered" &&
    data.previous_tracking_state !== "delivered"
  ) {
    events = [arrivedEvent(await tasks.retrieveLastmileTask(data.id))]
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
