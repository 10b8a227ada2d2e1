/**
 * The booking workflow's runner (decision 39): what a run came to as a `BookingOutcome`, for the subscribers, the job's
 * pass, the merchant's Retry and the `fulfillmentCreated` hook, never thrown where its callers must not.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { type BookTaskWorkflowInput, bookTaskWorkflow } from "./index"
import { identify } from "./steps/identify-task"
import { type BookingOutcome, outcomeOfRow } from "../../lib/booking/booking-outcome"
import { type BookingTarget, deliveryTargetOf, retryTargetOf } from "../../lib/booking/booking-read"
import { recentLastmileOrders } from "../../lib/booking/medusa/read-order"
import { replacementReturnId } from "../../lib/booking/medusa/read-booking"
import { booksOnPlacement } from "../../lib/options/plugin-options"
import { errorMessage } from "../../lib/support/error-message"
import { type TaskRow, TaskRowsService } from "../../modules/lastmile/services/task-rows"
import { PluginSettingsService } from "../../modules/lastmile/services/plugin-settings"

export async function bookTask(
  container: MedusaContainer,
  target: BookingTarget,
  options: Omit<BookTaskWorkflowInput, "target"> = {}
): Promise<BookingOutcome> {
  const lockOwner = options.lock_owner ?? `lastmile-run:${randomUUID()}`
  const tasks = TaskRowsService.of(container)
  const { result, errors } = await bookTaskWorkflow(container).run({
    input: { ...options, target, lock_owner: lockOwner },
    throwOnError: false,
  })
  const failure = errors?.[0]
  const cause = failure ? errorMessage(failure.error) : ""
  // A run that failed inside the fulfillment it created: its hook's booking handed back what it came to.
  const handed = options.lock_held ? undefined : tasks.takeHandedOutcome(lockOwner)
  const outcome: BookingOutcome = !failure
    ? result
    : failure.action === acquireLockStepId
      ? { status: "busy", reason: "another run holds the task's lock" }
      : (handed ?? (await settledAfter(container, target, cause)))
  // The booking inside the plugin's own run is told by that run; a settled failure by the step that records it.
  if (!options.lock_held) {
    logOutcome(container, target, outcome, cause)
  }
  return outcome
}

function logOutcome(container: MedusaContainer, target: BookingTarget, outcome: BookingOutcome, cause: string): void {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const named =
    target.kind === "fulfillment"
      ? `fulfillment ${target.fulfillment_id}`
      : target.kind === "return"
        ? `return ${target.return_id}`
        : (target.reference_id ?? target.order_id)
  if (outcome.status === "booked") {
    logger.info(`lastmile: ${named} booked as task ${outcome.task_id}${outcome.adopted ? " (adopted)" : ""}`)
  } else if (outcome.status === "busy" || outcome.status === "refused") {
    logger.warn(`lastmile: booking ${named} ${outcome.status === "busy" ? "skipped" : "refused"}: ${outcome.reason}`)
  } else if (cause) {
    logger.warn(`lastmile: booking ${named} did not complete (${outcome.status}): ${cause}`)
  }
}

/**
 * A run that failed before any booking ran (Medusa refused to create the fulfillment, say): its compensation settled
 * the row, which says how, and names the cause where the compensation could only say "interrupted".
 */
async function settledAfter(container: MedusaContainer, target: BookingTarget, cause: string): Promise<BookingOutcome> {
  const tasks = TaskRowsService.of(container)
  const identity = await identify(container, target).catch(() => null)
  const reference = identity?.action === "go" ? identity.reference : null
  const [row] = reference ? await tasks.list({ merchant_order_id: reference }, { select: ["id"] }) : []
  if (!row) {
    return { status: "failed", reason: cause }
  }
  await tasks.noteInterruptionCause(row.id, `The booking attempt did not complete: ${cause}`)
  const settled = outcomeOfRow(await tasks.retrieve(row.id))
  return settled.status === "booked" ? { status: "already_booked" } : settled
}

/**
 * An exchange's or a claim's two bookings, when it is confirmed: its inbound items (a return, when it uses the lastmile
 * return option) and its replacement (a delivery of its own, unless the merchant books at fulfillment).
 */
export async function bookReplacement(container: MedusaContainer, orderId: string, referenceId: string) {
  const returnId = await replacementReturnId(container, referenceId)
  const outcomes: Partial<Record<"return" | "delivery", BookingOutcome>> = {}
  if (returnId) {
    outcomes.return = await bookTask(container, { kind: "return", return_id: returnId })
  }
  if (booksOnPlacement(PluginSettingsService.of(container).options)) {
    outcomes.delivery = await bookTask(container, { kind: "order", order_id: orderId, reference_id: referenceId })
  }
  return outcomes
}

/** The merchant's Retry on one task: its delivery or return is booked again now, even when it waited for them. */
export async function retryTask(container: MedusaContainer, task: TaskRow): Promise<BookingOutcome> {
  const target = retryTargetOf(task)
  if ("refused" in target) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, target.refused)
  }
  return bookTask(container, target, { retry_needs_attention: true })
}

export interface RetryPassOptions {
  /** A task still "booking" after this long was left by a stopped process. Default 5 minutes. */
  staleBookingMs?: number
  /** How far back orders are reconciled. Default 3 days. */
  reconcileWindowMs?: number
  batchSize?: number
  now?: Date
}

/**
 * The booking job's pass (every minute): books deliveries and returns whose retry is due, finishes attempts left
 * mid-booking by a stopped process, and books recent orders with a lastmile method that have no task at all (an
 * `order.placed` that was never handled). A cancelled order is never booked. It waits for no lock (decision 12).
 */
export async function retryDueBookings(
  container: MedusaContainer,
  options: RetryPassOptions = {}
): Promise<Record<string, BookingOutcome>> {
  const now = options.now ?? new Date()
  const batch = options.batchSize ?? 50
  const tasks = TaskRowsService.of(container)
  const staleBefore = new Date(now.getTime() - (options.staleBookingMs ?? 5 * 60_000))
  const due = {
    $or: [
      { status: "failed", next_attempt_at: { $lte: now } },
      { status: ["booking", "pending"], updated_at: { $lte: staleBefore } },
    ],
  }
  const page = { take: batch, order: { created_at: "ASC" } } as const
  // Items the merchant picked by hand cannot be fulfilled again by the job: they wait for the merchant.
  const deliveries = await tasks.list({ kind: "delivery", origin: { $ne: "part" }, ...due }, page)
  const targets = new Map(
    deliveries.map((task): [string, BookingTarget] => [task.merchant_order_id, deliveryTargetOf(task)])
  )

  // Orders placed while the process was down (their order.placed was never handled); a just-placed order is left to
  // its subscriber. Booking at fulfillment: an order without a task is the merchant's to fulfil, not a missed event.
  if (booksOnPlacement(PluginSettingsService.of(container).options)) {
    const since = new Date(now.getTime() - (options.reconcileWindowMs ?? 3 * 24 * 60 * 60_000))
    const candidates = await recentLastmileOrders(container, since, staleBefore)
    const known = candidates.length
      ? (await tasks.list({ merchant_order_id: candidates }, { select: ["merchant_order_id"] })).map(
          (t) => t.merchant_order_id
        )
      : []
    for (const id of candidates.filter((c) => !known.includes(c))) {
      if (targets.size < batch) {
        targets.set(id, { kind: "order", order_id: id })
      }
    }
  }

  const outcomes: Record<string, BookingOutcome> = {}
  for (const [reference, target] of targets) {
    // A delivery whose lock another run holds is being booked by it: no wait, so one busy delivery never holds up
    // the pass (Medusa runs one scheduled job at a time); the next pass sees how it settled.
    outcomes[reference] = await bookTask(container, target, { lock_timeout: 0 })
  }
  // Returns whose booking failed before the service processed it, or left mid-booking (looked up, never posted
  // again blindly).
  for (const { return_id } of await tasks.list({ kind: "return", ...due }, page)) {
    if (return_id) {
      outcomes[return_id] = await bookTask(container, { kind: "return", return_id }, { lock_timeout: 0 })
    }
  }
  return outcomes
}
