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
import { findOrCreateTask, recordBooked } from "../lib/booking/task-records"

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
  const fulfillment = data[0] as { id: string; provider_id?: string; data?: Record<string, unknown> | null } | undefined
  const booking = fulfillment?.data
  if (fulfillment?.provider_id !== LASTMILE_PROVIDER_ID || booking?.taskId === undefined || booking?.taskId === null) {
    return
  }
  const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const task = await findOrCreateTask(tasks, {
    kind: "delivery",
    order_id: event.data.order_id,
    merchant_order_id: event.data.order_id,
    merchant_location_id: (booking.merchantLocationId as string | null) ?? null,
  })
  if (task.status !== "booked") {
    await recordBooked(tasks, task, fulfillment.id, booking)
  }
}

export const config: SubscriberConfig = {
  event: "order.fulfillment_created",
  context: { subscriberId: "lastmile-fulfillment-created" },
}
