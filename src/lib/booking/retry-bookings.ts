/**
 * The retry and reconciliation pass of the booking job: books tasks whose
 * retry is due (deliveries and returns), tasks left mid-booking by a stopped process, and recent
 * orders with a lastmile method that have no task at all (an order.placed
 * event that was never handled).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { type BookingOutcome, bookOrderDelivery } from "./book-order-delivery"
import { settleFailure } from "./settle-failure"
import { isBookableMethodData } from "../lastmile/fulfillment-options"
import { booksOnPlacement } from "../lastmile/plugin-options"
import { type ReturnBookingOutcome, bookReturn } from "./book-return"
import { returnBookingLockKey } from "../../workflows/book-return"
import { BOOKING_ERROR_CODES } from "../lastmile/booking-codes"

interface OrderMethods {
  id: string
  shipping_methods?: { data?: Record<string, unknown> | null }[]
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

  const due = await tasks.listLastmileTasks(
    {
      kind: "delivery",
      $or: [
        { status: "failed", next_attempt_at: { $lte: now } },
        { status: ["booking", "pending"], updated_at: { $lte: staleBefore } },
      ],
    },
    { take: batch, order: { created_at: "ASC" } }
  )
  const orderIds = new Set(due.map((t) => t.order_id))

  // Orders placed while the process was down (their order.placed was never handled). A
  // just-placed order is left to its subscriber: racing it would only wait on its lock.
  const since = new Date(now.getTime() - (options.reconcileWindowMs ?? 3 * 24 * 60 * 60_000))
  const { data: recent } = await query.graph({
    entity: "order",
    fields: ["id", "shipping_methods.data"],
    filters: { created_at: { $gte: since, $lte: staleBefore }, canceled_at: null },
    pagination: { take: 500, order: { created_at: "DESC" } },
  })
  // Booking at fulfillment: an order without a task is the merchant's to fulfil, not a missed event.
  const reconcile = booksOnPlacement(tasks.getPluginOptions())
  const candidates = ((reconcile ? recent : []) as OrderMethods[])
    .filter((o) => o.shipping_methods?.some((m) => isBookableMethodData(m.data)))
    .map((o) => o.id)
  if (candidates.length) {
    const known = new Set(
      (await tasks.listLastmileTasks({ merchant_order_id: candidates }, { select: ["merchant_order_id"] })).map(
        (t) => t.merchant_order_id
      )
    )
    for (const id of candidates) {
      if (!known.has(id) && orderIds.size < batch) {
        orderIds.add(id)
      }
    }
  }

  const outcomes: Record<string, BookingOutcome | ReturnBookingOutcome> = {}
  for (const orderId of orderIds) {
    outcomes[orderId] = await bookOrderDelivery(container, orderId)
  }
  // Returns whose booking failed before the service processed it.
  const dueReturns = await tasks.listLastmileTasks(
    {
      kind: "return",
      $or: [
        { status: "failed", next_attempt_at: { $lte: now } },
        { status: ["booking", "pending"], updated_at: { $lte: staleBefore } },
      ],
    },
    { take: batch, order: { created_at: "ASC" } }
  )
  for (const task of dueReturns) {
    if (!task.return_id) {
      continue
    }
    // A return left mid-booking may have been posted: it is never posted again blindly (returns are not de-duplicated).
    outcomes[task.return_id] =
      task.status === "booking"
        ? await settleFailure(container, task.return_id, returnBookingLockKey(task.return_id), {
            code: BOOKING_ERROR_CODES.needsAttention,
            message:
              "The return's booking was interrupted and may have reached the service: check the service's app, then retry.",
          })
        : await bookReturn(container, task.return_id)
  }
  return outcomes
}
