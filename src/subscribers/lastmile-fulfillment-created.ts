/**
 * Records a lastmile booking made through a fulfillment the merchant created
 * (booking_trigger "fulfillment", or a manual fulfillment in admin), so every
 * booked delivery has its task row.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../modules/lastmile"
import type { LastmileModuleService } from "../modules/lastmile/service"
import { LASTMILE_PROVIDER_ID } from "../providers/lastmile/fulfillment-options"

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
  const [task] = await tasks.listLastmileTasks({ merchant_order_id: event.data.order_id })
  if (task?.status === "booked") {
    return
  }
  const fields = {
    status: "booked" as const,
    fulfillment_id: fulfillment.id,
    task_id: String(booking.taskId),
    tracking_id: (booking.trackingId as string | null) ?? null,
    tracking_url: (booking.trackingUrl as string | null) ?? null,
    rate_code: (booking.rateCode as string | null) ?? null,
    service_status: (booking.status as string | null) ?? null,
    merchant_location_id: (booking.merchantLocationId as string | null) ?? null,
    booked_at: new Date(),
    adopted: !!booking.adopted,
    last_error: null,
    next_attempt_at: null,
  }
  if (task) {
    await tasks.updateLastmileTasks({ id: task.id, ...fields })
  } else {
    await tasks.createLastmileTasks({
      kind: "delivery",
      order_id: event.data.order_id,
      merchant_order_id: event.data.order_id,
      status_history: { entries: [{ value: fields.service_status ?? "booked", at: new Date().toISOString() }] },
      ...fields,
    })
  }
}

export const config: SubscriberConfig = {
  event: "order.fulfillment_created",
  context: { subscriberId: "lastmile-fulfillment-created" },
}
