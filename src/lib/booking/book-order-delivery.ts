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
import { RETURN_OPTION_ID } from "../../providers/lastmile/fulfillment-options"
import type { MedusaAddressLike } from "../../providers/lastmile/quote-request"

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
  items?: { id: string; quantity: BigNumberInput; requires_shipping?: boolean | null }[]
  shipping_methods?: { id: string; shipping_option_id?: string | null; data?: Record<string, unknown> | null }[]
  fulfillments?: {
    id: string
    canceled_at?: string | null
    data?: Record<string, unknown> | null
    provider_id?: string
  }[]
}

interface TaskRow {
  id: string
  status: string
  attempts: number
  status_history?: { entries?: unknown[] } | null
}

/** Backoff of the retry job: 30 s, 1 min, 2 min, 4 min … capped at 1 hour. */
export function nextAttemptDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1))
}

export function isLastmileMethodData(data: Record<string, unknown> | null | undefined): boolean {
  const id = data?.optionId
  return typeof id === "string" && id.startsWith("lastmile-") && id !== RETURN_OPTION_ID
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
  const order = orders[0] as OrderRow | undefined
  const method = order?.shipping_methods?.find((m) => isLastmileMethodData(m.data))
  if (!order || !method || order.canceled_at || order.status === "canceled") {
    return { status: "not_lastmile" }
  }
  const data = method.data as Record<string, unknown>

  let [task] = (await tasks.listLastmileTasks({ merchant_order_id: order.id })) as TaskRow[]
  if (!task) {
    task = (await tasks.createLastmileTasks({
      kind: "delivery",
      order_id: order.id,
      merchant_order_id: order.id,
      status: "pending",
      rate_code: (data.rateCode as string | null) ?? null,
      delivery_type: (data.deliveryType as string | null) ?? null,
      merchant_location_id: (data.merchantLocationId as string | null) ?? null,
    })) as TaskRow
  }
  if (task.status === "booked") {
    return { status: "already_booked" }
  }
  if (task.status === "needs_attention" && !options.retryNeedsAttention) {
    return { status: "needs_attention", reason: "waiting for the merchant" }
  }

  // A lastmile fulfillment Medusa already has (made by the merchant, or by a run that stopped before recording it).
  const existing = order.fulfillments?.find((f) => !f.canceled_at && f.data && f.data.taskId !== undefined)
  if (existing) {
    await recordBooked(tasks, task, existing.id, existing.data as Record<string, unknown>)
    return { status: "already_booked" }
  }

  const attempts = task.attempts + 1
  await tasks.updateLastmileTasks({ id: task.id, status: "booking", attempts, next_attempt_at: null })

  try {
    const collectionAddress = await locationAddress(container, data.stockLocationId as string | undefined)
    const items = (order.items ?? []).filter((i) => i.requires_shipping !== false)
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
    if (needsAttention) {
      await tasks.updateLastmileTasks({
        id: task.id,
        status: "needs_attention",
        last_error: message,
        next_attempt_at: null,
        status_history: appendHistory(task, "needs_attention", message),
      })
      logger.warn(`lastmile: order ${orderId} needs attention: ${message}`)
      return { status: "needs_attention", reason: message }
    }
    const nextAttemptAt = new Date(Date.now() + nextAttemptDelayMs(attempts))
    await tasks.updateLastmileTasks({
      id: task.id,
      status: "failed",
      last_error: message,
      next_attempt_at: nextAttemptAt,
      status_history: appendHistory(task, "failed", message),
    })
    logger.warn(
      `lastmile: booking order ${orderId} failed (attempt ${attempts}), retrying from ${nextAttemptAt.toISOString()}: ${message}`
    )
    return { status: "failed", reason: message, nextAttemptAt }
  }
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
  const fulfillments = ((data[0] as OrderRow | undefined)?.fulfillments ?? []) as NonNullable<OrderRow["fulfillments"]>
  const found = fulfillments.find(
    (f) => !f.canceled_at && f.data && f.data.taskId !== undefined && f.data.taskId !== null
  )
  return found ? { id: found.id, data: found.data as Record<string, unknown> } : undefined
}

async function recordBooked(
  tasks: LastmileModuleService,
  task: TaskRow,
  fulfillmentId: string,
  data: Record<string, unknown>
): Promise<void> {
  await tasks.updateLastmileTasks({
    id: task.id,
    status: "booked",
    fulfillment_id: fulfillmentId,
    task_id: data.taskId !== undefined && data.taskId !== null ? String(data.taskId) : null,
    tracking_id: (data.trackingId as string | null) ?? null,
    tracking_url: (data.trackingUrl as string | null) ?? null,
    rate_code: (data.rateCode as string | null) ?? null,
    service_status: (data.status as string | null) ?? null,
    adopted: !!data.adopted,
    booked_at: new Date(),
    last_error: null,
    next_attempt_at: null,
    status_history: appendHistory(task, (data.status as string | null) ?? "booked"),
  })
}

export function appendHistory(task: TaskRow, value: string, detail?: string): { entries: unknown[] } {
  const entries = [...(task.status_history?.entries ?? [])]
  entries.push({ value, at: new Date().toISOString(), ...(detail ? { detail } : {}) })
  return { entries }
}

async function locationAddress(
  container: MedusaContainer,
  locationId: string | undefined
): Promise<MedusaAddressLike | null> {
  if (!locationId) {
    return null
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "stock_location",
    fields: ["id", "address.*"],
    filters: { id: locationId },
  })
  return ((data[0] as { address?: MedusaAddressLike | null } | undefined)?.address ?? null) as MedusaAddressLike | null
}

/** Errors come back from the workflow engine as plain objects, not Error instances. */
export function errorMessage(error: unknown): string {
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message
  }
  try {
    return typeof error === "string" ? error : JSON.stringify(error)
  } catch {
    return String(error)
  }
}
