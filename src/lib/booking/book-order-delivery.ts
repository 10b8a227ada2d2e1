/**
 * Runs an order's booking: the booking workflow, and when it fails, the
 * failure recorder, which decides by the error's booking code whether the
 * merchant must decide or the retry job tries again. It never throws:
 * placing an order must not fail because of the service.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { bookOrderDeliveryWorkflow, orderBookingLockKey } from "../../workflows/book-order-delivery"
import { recordBookingFailureWorkflow } from "../../workflows/record-booking-failure"
import { errorMessage } from "../lastmile/error-message"

export type BookingOutcome =
  | { status: "booked"; taskId: string; adopted: boolean }
  | { status: "already_booked" }
  | { status: "needs_attention"; reason: string }
  | { status: "failed"; reason: string; nextAttemptAt: Date }
  | { status: "not_lastmile" }
  /** Another run holds the order's lock: it books. */
  | { status: "busy" }

export async function bookOrderDelivery(
  container: MedusaContainer,
  orderId: string,
  options: { retryNeedsAttention?: boolean } = {}
): Promise<BookingOutcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const { result, errors } = await bookOrderDeliveryWorkflow(container).run({
    input: { order_id: orderId, retry_needs_attention: options.retryNeedsAttention },
    throwOnError: false,
  })
  const failure = errors?.[0]
  if (!failure) {
    if (result.status === "booked") {
      logger.info(`lastmile: order ${orderId} booked as task ${result.task_id}`)
      return { status: "booked", taskId: result.task_id, adopted: result.adopted }
    }
    return result
  }
  if (failure.action === acquireLockStepId) {
    logger.warn(`lastmile: booking ${orderId} skipped: another run holds its lock`)
    return { status: "busy" }
  }
  return settleFailure(container, orderId, orderBookingLockKey(orderId), failure.error)
}

/** Records a failed attempt (delivery or return) by its error's code; the outcome for the caller. */
export async function settleFailure(
  container: MedusaContainer,
  merchantOrderId: string,
  lockKey: string,
  error: unknown
): Promise<Exclude<BookingOutcome, { status: "booked" }>> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  // The service client's messages are redacted: they never hold the API key.
  const message = errorMessage(error)
  const code = error && typeof error === "object" ? (error as { code?: unknown }).code : undefined
  const { result, errors } = await recordBookingFailureWorkflow(container).run({
    input: {
      merchant_order_id: merchantOrderId,
      lock_key: lockKey,
      error: { code: typeof code === "string" ? code : null, message },
    },
    throwOnError: false,
  })
  if (errors?.length) {
    // Another run holds the lock (or the write failed): the attempt stays `booking`, and the job's pass settles it.
    logger.warn(`lastmile: booking ${merchantOrderId} failed and could not be recorded yet: ${message}`)
    return { status: "busy" }
  }
  if (result.status === "unchanged") {
    logger.warn(`lastmile: booking ${merchantOrderId} failed, but another run settled it: ${message}`)
    return { status: "busy" }
  }
  if (result.status === "needs_attention") {
    logger.warn(`lastmile: booking ${merchantOrderId} needs attention: ${message}`)
    return result
  }
  logger.warn(`lastmile: booking ${merchantOrderId} failed, retrying from ${result.nextAttemptAt}: ${message}`)
  return { status: "failed", reason: result.reason, nextAttemptAt: new Date(result.nextAttemptAt) }
}
