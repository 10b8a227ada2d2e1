/**
 * Runs the plugin's own booking of a delivery (the order's, or a
 * replacement's with `referenceId`), and when it fails, records why by the
 * error's booking code: the merchant decides, or the retry job tries again.
 * It never throws: placing an order must not fail because of the service.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { bookOrderDeliveryWorkflow } from "./index"
import { deliveryLockKey } from "../book-delivery"
import { settleBookingFailure } from "../record-booking-failure/run"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { errorMessage } from "../../lib/support/error-message"

export type BookingOutcome =
  | { status: "booked"; taskId: string; adopted: boolean }
  | { status: "already_booked" }
  | { status: "needs_attention"; reason: string }
  | { status: "failed"; reason: string; nextAttemptAt?: Date }
  | { status: "not_lastmile" }
  | { status: "cancelled" }
  | { status: "nothing_to_book" }
  /** Another run holds the delivery's lock: it books. */
  | { status: "busy" }

export async function bookOrderDelivery(
  container: MedusaContainer,
  orderId: string,
  options: {
    referenceId?: string
    retryNeedsAttention?: boolean
    /** Seconds to wait for the delivery's lock held by another run (default 60). */
    lockTimeout?: number
  } = {}
): Promise<BookingOutcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const reference = options.referenceId ?? orderId
  const owner = `lastmile-run:${randomUUID()}`
  const { result, errors } = await bookOrderDeliveryWorkflow(container).run({
    input: {
      order_id: orderId,
      reference_id: options.referenceId,
      retry_needs_attention: options.retryNeedsAttention,
      lock_owner: owner,
      lock_timeout: options.lockTimeout,
    },
    throwOnError: false,
  })
  const failure = errors?.[0]
  if (!failure) {
    if (result.status === "booked") {
      logger.info(`lastmile: ${reference} booked as task ${result.task_id}`)
      return { status: "booked", taskId: result.task_id, adopted: result.adopted }
    }
    return result
  }
  if (failure.action === acquireLockStepId) {
    logger.warn(`lastmile: booking ${reference} skipped: another run holds its lock`)
    return { status: "busy" }
  }
  const [task] = await container
    .resolve<LastmileModuleService>(LASTMILE_MODULE)
    .listLastmileTasks({ merchant_order_id: reference })
  if (task?.status === "booking") {
    // The booking inside the run records its own failures; this settles one that came before it (say, Medusa's inventory).
    const settled = await settleBookingFailure(container, {
      merchant_order_id: reference,
      lock_key: deliveryLockKey(reference),
      error: failure.error,
    })
    return settled.status === "busy" ? { status: "busy" } : settled
  }
  if (task?.status === "needs_attention") {
    return { status: "needs_attention", reason: task.last_error ?? errorMessage(failure.error) }
  }
  if (task?.status === "booked") {
    return { status: "already_booked" }
  }
  return {
    status: "failed",
    reason: task?.last_error ?? errorMessage(failure.error),
    nextAttemptAt: task?.next_attempt_at ? new Date(task.next_attempt_at) : undefined,
  }
}
