/**
 * Settles a failed booking attempt, of a delivery or a return, by its error's
 * booking code (the merchant decides, or the retry job tries again). Never
 * throws: the caller is a subscriber, a job or a route.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { recordBookingFailureWorkflow } from "../../workflows/record-booking-failure"
import { errorMessage } from "../lastmile/error-message"
import type { BookingOutcome } from "./book-order-delivery"

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
