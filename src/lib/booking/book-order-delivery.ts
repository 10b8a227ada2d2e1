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
import { settleFailure } from "./settle-failure"

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
