/**
 * The booking job's pass (every minute): books deliveries and returns whose
 * retry is due, finishes attempts left mid-booking by a stopped process, and
 * books recent orders with a lastmile method that have no task at all (an
 * `order.placed` that was never handled). A cancelled order is never booked.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService, TaskRow } from "../../modules/lastmile/service"
import { type BookingOutcome, bookOrderDelivery } from "./run"
import { type ReturnBookingOutcome, bookReturn } from "../book-return/run"
import { returnBookingLockKey } from "../book-return"
import { settleBookingFailure } from "../record-booking-failure/run"
import { methodKindOf, readFulfillmentData } from "../../lib/contracts/plugin-data"
import { booksOnPlacement } from "../../lib/options/plugin-options"
import { BOOKING_ERROR_CODES } from "../../lib/booking/booking-codes"

interface OrderMethods {
  id: string
  shipping_methods?: ({ data?: unknown } | null)[] | null
}

export interface RetryPassOptions {
  /** A task still "booking" after this long was left by a stopped process. Default 5 minutes. */
  staleBookingMs?: number
  /** How far back orders are reconciled. Default 3 days. */
  reconcileWindowMs?: number
  batchSize?: number
  now?: Date
}

export async function retryDueBookings(
  container: MedusaContainer,
  options: RetryPassOptions = {}
): Promise<Record<string, BookingOutcome | ReturnBookingOutcome>> {
  const now = options.now ?? new Date()
  const batch = options.batchSize ?? 50
  const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const staleBefore = new Date(now.getTime() - (options.staleBookingMs ?? 5 * 60_000))
  const dueFilter = {
    $or: [
      { status: "failed", next_attempt_at: { $lte: now } },
      { status: ["booking", "pending"], updated_at: { $lte: staleBefore } },
    ],
  }

  const due = await tasks.listLastmileTasks(
    // Items the merchant picked by hand cannot be fulfilled again by the job: they wait for the merchant.
    { kind: "delivery", origin: { $ne: "part" }, ...dueFilter },
    { take: batch, order: { created_at: "ASC" } }
  )
  const deliveries = new Map<string, { orderId: string; referenceId?: string }>()
  for (const task of due) {
    const replacement = task.origin === "exchange" || task.origin === "claim"
    deliveries.set(task.merchant_order_id, {
      orderId: task.order_id,
      referenceId: replacement ? task.merchant_order_id : undefined,
    })
  }

  // Orders placed while the process was down (their order.placed was never handled). A
  // just-placed order is left to its subscriber: racing it would only wait on its lock.
  const since = new Date(now.getTime() - (options.reconcileWindowMs ?? 3 * 24 * 60 * 60_000))
  // Booking at fulfillment: an order without a task is the merchant's to fulfil, not a missed event.
  if (booksOnPlacement(tasks.getPluginOptions())) {
    const { data: recent } = await query.graph({
      entity: "order",
      fields: ["id", "shipping_methods.data"],
      filters: { created_at: { $gte: since, $lte: staleBefore }, canceled_at: null },
      pagination: { take: 500, order: { created_at: "DESC" } },
    })
    const candidates = (recent as OrderMethods[])
      .filter((o) => (o.shipping_methods ?? []).some((m) => methodKindOf(m?.data) !== null))
      .map((o) => o.id)
    if (candidates.length) {
      const known = new Set(
        (await tasks.listLastmileTasks({ merchant_order_id: candidates }, { select: ["merchant_order_id"] })).map(
          (t) => t.merchant_order_id
        )
      )
      for (const id of candidates) {
        if (!known.has(id) && deliveries.size < batch) {
          deliveries.set(id, { orderId: id })
        }
      }
    }
  }

  const outcomes: Record<string, BookingOutcome | ReturnBookingOutcome> = {}
  for (const [reference, delivery] of deliveries) {
    // A delivery whose lock another run holds is being booked by it: no wait, so one busy delivery never
    // holds up the pass (Medusa runs one scheduled job at a time); the next pass sees how it settled.
    outcomes[reference] = await bookOrderDelivery(container, delivery.orderId, {
      referenceId: delivery.referenceId,
      lockTimeout: 0,
    })
  }
  // Returns whose booking failed before the service processed it.
  const dueReturns = await tasks.listLastmileTasks(
    { kind: "return", ...dueFilter },
    { take: batch, order: { created_at: "ASC" } }
  )
  for (const task of dueReturns) {
    if (!task.return_id) {
      continue
    }
    // A return left mid-booking may have been posted: it is never posted again blindly (returns are not de-duplicated).
    // Its fulfillment may hold the booking already (the process stopped before the row was marked): recorded from it.
    const finished = task.status === "booking" ? await recordFromOwnFulfillment(container, task) : undefined
    outcomes[task.return_id] = finished
      ? finished
      : task.status === "booking"
        ? await settleBookingFailure(container, {
            merchant_order_id: task.return_id,
            lock_key: returnBookingLockKey(task.return_id),
            error: {
              code: BOOKING_ERROR_CODES.needsAttention,
              message:
                "The return's booking was interrupted and may have reached the service: check the service's app, then retry.",
            },
          })
        : await bookReturn(container, task.return_id, { lockTimeout: 0 })
  }
  return outcomes
}

/** A row that learnt its task before the process stopped, whose fulfillment holds that booking: marked booked. */
async function recordFromOwnFulfillment(
  container: MedusaContainer,
  task: TaskRow
): Promise<{ status: "booked"; taskId: string } | undefined> {
  if (!task.task_id || !task.fulfillment_id) {
    return undefined
  }
  const [fulfillment] = await container
    .resolve(Modules.FULFILLMENT)
    .listFulfillments({ id: task.fulfillment_id }, { select: ["id", "data", "canceled_at"] })
  const booking = fulfillment && !fulfillment.canceled_at ? readFulfillmentData(fulfillment.data) : null
  if (!booking || String(booking.taskId) !== task.task_id) {
    return undefined
  }
  await container
    .resolve<LastmileModuleService>(LASTMILE_MODULE)
    .recordBookedFromFulfillment(task, fulfillment.id, booking)
  return { status: "booked", taskId: task.task_id }
}
