/**
 * Books an order's lastmile delivery exactly once. Runs under Medusa's
 * locking module (one booking per order at a time, across instances with
 * Redis locking), records a task row before calling the service (so a crash
 * leaves a trace the retry job reconciles), creates the fulfillment through
 * Medusa's createOrderFulfillmentWorkflow (whose provider call books), and
 * records the outcome. It never throws: placing an order must not fail
 * because of the service.
 */
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { createOrderFulfillmentWorkflow } from "@medusajs/medusa/core-flows"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { isBookableMethodData } from "../lastmile/fulfillment-options"
import {
  findBookedFulfillment,
  findOrCreateTask,
  recordBooked,
  recordFailure,
  startAttempt,
  stockLocationAddress,
} from "./task-records"
import { errorMessage } from "../lastmile/error-message"

export type BookingOutcome =
  | { status: "booked"; taskId: string; adopted: boolean }
  | { status: "already_booked" }
  | { status: "needs_attention"; reason: string }
  | { status: "failed"; reason: string; nextAttemptAt: Date }
  | { status: "not_lastmile" }
  | { status: "busy" }

interface OrderRow {
  id: string
  display_id?: number
  canceled_at?: string | null
  status?: string
  items?: {
    id: string
    quantity: BigNumberInput
    requires_shipping?: boolean | null
    variant?: { product?: { shipping_profile?: { id: string } | null } | null } | null
  }[]
  shipping_methods?: { id: string; shipping_option_id?: string | null; data?: Record<string, unknown> | null }[]
  fulfillments?: {
    id: string
    canceled_at?: string | null
    data?: Record<string, unknown> | null
    provider_id?: string
  }[]
}

export async function bookOrderDelivery(
  container: MedusaContainer,
  orderId: string,
  options: { retryNeedsAttention?: boolean } = {}
): Promise<BookingOutcome> {
  const locking = container.resolve(Modules.LOCKING)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    return await locking.execute(`lastmile:booking:${orderId}`, () => bookLocked(container, orderId, options), {
      timeout: 60,
    })
  } catch (error) {
    // Another run holds the lock past the timeout: it books; this one leaves it.
    logger.warn(`lastmile: booking ${orderId} skipped: ${errorMessage(error)}`)
    return { status: "busy" }
  }
}

async function bookLocked(
  container: MedusaContainer,
  orderId: string,
  options: { retryNeedsAttention?: boolean }
): Promise<BookingOutcome> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)

  const { data: orders } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "display_id",
      "status",
      "canceled_at",
      // Order item quantities are computed: only "items.*" returns them.
      "items.*",
      "items.variant.product.shipping_profile.id",
      "shipping_methods.id",
      "shipping_methods.shipping_option_id",
      "shipping_methods.data",
      "fulfillments.id",
      "fulfillments.canceled_at",
      "fulfillments.data",
      "fulfillments.provider_id",
    ],
    filters: { id: orderId },
  })
  const order = orders[0] as unknown as OrderRow | undefined
  const method = order?.shipping_methods?.find((m) => isBookableMethodData(m.data))
  if (!order || !method || order.canceled_at || order.status === "canceled") {
    return { status: "not_lastmile" }
  }
  const data = method.data as Record<string, unknown>

  const task = await findOrCreateTask(tasks, {
    kind: "delivery",
    order_id: order.id,
    merchant_order_id: order.id,
    rate_code: (data.rateCode as string | null) ?? null,
    delivery_type: (data.deliveryType as string | null) ?? null,
    merchant_location_id: (data.merchantLocationId as string | null) ?? null,
  })
  if (task.status === "booked") {
    return { status: "already_booked" }
  }
  if (task.status === "needs_attention" && !options.retryNeedsAttention) {
    return { status: "needs_attention", reason: "waiting for the merchant" }
  }

  // A lastmile fulfillment Medusa already has (made by the merchant, or by a run that stopped before recording it).
  const existing = findBookedFulfillment(order.fulfillments)
  if (existing) {
    await recordBooked(tasks, task, existing.id, existing.data)
    return { status: "already_booked" }
  }

  const attempts = await startAttempt(tasks, task)

  try {
    const collectionAddress = await stockLocationAddress(container, data.stockLocationId as string | undefined)
    const items = await itemsOfOption(container, order, method.shipping_option_id)
    await createOrderFulfillmentWorkflow(container).run({
      input: {
        order_id: order.id,
        shipping_option_id: method.shipping_option_id ?? undefined,
        location_id: (data.stockLocationId as string | undefined) ?? undefined,
        items: items.map((i) => ({ id: i.id, quantity: MathBN.convert(i.quantity).toNumber() })),
        additional_data: {
          lastmile: { collection_address: collectionAddress, adopt_existing: true, first_attempt: attempts === 1 },
        },
      },
    })
    // Read what was stored, rather than the workflow's answer: the fulfillment row is the record.
    const fulfillment = await bookedFulfillment(container, order.id)
    if (!fulfillment) {
      throw new Error("the fulfillment was created without a lastmile task")
    }
    await recordBooked(tasks, task, fulfillment.id, fulfillment.data)
    logger.info(`lastmile: order ${orderId} booked as task ${String(fulfillment.data.taskId)}`)
    return { status: "booked", taskId: String(fulfillment.data.taskId), adopted: !!fulfillment.data.adopted }
  } catch (error) {
    // The provider's messages come from the service client, which redacts the API key.
    const message = errorMessage(error)
    const code = (error as { code?: string })?.code
    const needsAttention =
      code === "lastmile_needs_attention" ||
      code === "lastmile_already_booked" ||
      message.startsWith("Lastmile booking needs attention") ||
      message.includes("already has a lastmile delivery")
    const nextAttemptAt = await recordFailure(tasks, task, { attempts, message, needsAttention })
    if (!nextAttemptAt) {
      logger.warn(`lastmile: order ${orderId} needs attention: ${message}`)
      return { status: "needs_attention", reason: message }
    }
    logger.warn(
      `lastmile: booking order ${orderId} failed (attempt ${attempts}), retrying from ${nextAttemptAt.toISOString()}: ${message}`
    )
    return { status: "failed", reason: message, nextAttemptAt }
  }
}

/**
 * The order's items that the lastmile option ships: those of its shipping
 * profile, as checkout quoted them (Medusa prices an option with the cart's
 * items of its profile, and refuses to fulfil an item of another profile).
 */
async function itemsOfOption(
  container: MedusaContainer,
  order: OrderRow,
  shippingOptionId: string | null | undefined
): Promise<NonNullable<OrderRow["items"]>> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = shippingOptionId
    ? await query.graph({
        entity: "shipping_option",
        fields: ["id", "shipping_profile_id"],
        filters: { id: shippingOptionId },
      })
    : { data: [] }
  const profileId = (data[0] as { shipping_profile_id?: string | null } | undefined)?.shipping_profile_id
  return (order.items ?? []).filter(
    (item) =>
      item.requires_shipping !== false &&
      (!profileId || !item.variant?.product || item.variant.product.shipping_profile?.id === profileId)
  )
}

async function bookedFulfillment(
  container: MedusaContainer,
  orderId: string
): Promise<{ id: string; data: Record<string, unknown> } | undefined> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["fulfillments.id", "fulfillments.data", "fulfillments.canceled_at"],
    filters: { id: orderId },
  })
  return findBookedFulfillment((data[0] as unknown as OrderRow | undefined)?.fulfillments)
}
