/**
 * The booking job's pass (every minute): books deliveries and returns whose retry is due, finishes attempts left
 * mid-booking by a stopped process, and books recent orders with a lastmile method that have no task at all (an
 * `order.placed` that was never handled). A cancelled order is never booked.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PluginSettingsService } from "../../modules/lastmile/services/plugin-settings"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import { type TaskBookingOutcome, bookTask } from "./run"
import type { BookingTarget } from "./read-booking"
import { deliveryTarget } from "./retry-task"
import { methodKindOf } from "../../lib/contracts/plugin-data"
import { booksOnPlacement } from "../../lib/options/plugin-options"

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
): Promise<Record<string, TaskBookingOutcome>> {
  const now = options.now ?? new Date()
  const batch = options.batchSize ?? 50
  const tasks = TaskRowsService.of(container)
  const staleBefore = new Date(now.getTime() - (options.staleBookingMs ?? 5 * 60_000))
  const dueFilter = {
    $or: [
      { status: "failed", next_attempt_at: { $lte: now } },
      { status: ["booking", "pending"], updated_at: { $lte: staleBefore } },
    ],
  }

  const page = { take: batch, order: { created_at: "ASC" } } as const
  const due = await tasks.list(
    // Items the merchant picked by hand cannot be fulfilled again by the job: they wait for the merchant.
    { kind: "delivery", origin: { $ne: "part" }, ...dueFilter },
    page
  )
  const deliveries = new Map<string, BookingTarget>(due.map((task) => [task.merchant_order_id, deliveryTarget(task)]))

  // Orders placed while the process was down (their order.placed was never handled). A
  // just-placed order is left to its subscriber: racing it would only wait on its lock.
  const since = new Date(now.getTime() - (options.reconcileWindowMs ?? 3 * 24 * 60 * 60_000))
  // Booking at fulfillment: an order without a task is the merchant's to fulfil, not a missed event.
  if (booksOnPlacement(PluginSettingsService.of(container).options)) {
    const { data: recent } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
      entity: "order",
      fields: ["id", "shipping_methods.data"],
      filters: { created_at: { $gte: since, $lte: staleBefore }, canceled_at: null },
      pagination: { take: 500, order: { created_at: "DESC" } },
    })
    const candidates: string[] = recent.flatMap(
      (o: { id: string; shipping_methods?: ({ data?: unknown } | null)[] | null }) =>
        (o.shipping_methods ?? []).some((m) => methodKindOf(m?.data) !== null) ? [o.id] : []
    )
    const known = new Set(
      candidates.length
        ? (await tasks.list({ merchant_order_id: candidates }, { select: ["merchant_order_id"] })).map(
            (t) => t.merchant_order_id
          )
        : []
    )
    for (const id of candidates) {
      if (!known.has(id) && deliveries.size < batch) {
        deliveries.set(id, { kind: "order", order_id: id })
      }
    }
  }

  const outcomes: Record<string, TaskBookingOutcome> = {}
  for (const [reference, target] of deliveries) {
    // A delivery whose lock another run holds is being booked by it: no wait, so one busy delivery never
    // holds up the pass (Medusa runs one scheduled job at a time); the next pass sees how it settled.
    outcomes[reference] = await bookTask(container, target, { lock_timeout: 0 })
  }
  // Returns whose booking failed before the service processed it, or was left mid-booking by a stopped process
  // (the booking looks those up and never posts them again blindly).
  const dueReturns = await tasks.list({ kind: "return", ...dueFilter }, page)
  for (const { return_id } of dueReturns) {
    if (return_id) {
      outcomes[return_id] = await bookTask(container, { kind: "return", return_id }, { lock_timeout: 0 })
    }
  }
  return outcomes
}
