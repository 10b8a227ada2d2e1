/**
 * Records a lastmile booking made through a fulfillment the merchant created
 * (booking_trigger "fulfillment", or a manual fulfillment in admin), so every
 * booked delivery has its task row.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../modules/lastmile"
import type { LastmileModuleService } from "../modules/lastmile/service"
import { LASTMILE_PROVIDER_ID } from "../lib/lastmile/fulfillment-options"
import { findOrCreateTask, recordBooked } from "../lib/tasks/task-records"
import { readFulfillmentData } from "../lib/lastmile/contracts"

export default async function lastmileFulfillmentCreated({
  event,
  container,
}: SubscriberArgs<{ order_id: string; fulfillment_id: string }>): Promise<void> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "fulfillment",
    fields: ["id", "provider_id", "data"],
    filters: { id: event.data.fulfillment_id },
  })
  const fulfillment: { id: string; provider_id?: string; data?: unknown } | undefined = data[0]
  const booking = readFulfillmentData(fulfillment?.data)
  if (!fulfillment || fulfillment.provider_id !== LASTMILE_PROVIDER_ID || !booking) {
    return
  }
  const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const task = await findOrCreateTask(tasks, {
    kind: "delivery",
    order_id: event.data.order_id,
    merchant_order_id: event.data.order_id,
    merchant_location_id: booking.merchantLocationId ?? null,
  })
  if (task.status !== "booked") {
    await recordBooked(tasks, task, fulfillment.id, booking)
  }
}

export const config: SubscriberConfig = {
  event: "order.fulfillment_created",
  context: { subscriberId: "lastmile-fulfillment-created" },
}
