/**
 * Settles a failed booking attempt, of any delivery or return, by its
 * error's booking code (the merchant decides, or the retry job tries again).
 * Never throws: its callers are a hook, a subscriber, a job or a route.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { recordBookingFailureWorkflow } from "./index"
import { errorMessage } from "../../lib/support/error-message"

export type SettledFailure =
  | { status: "needs_attention"; reason: string }
  | { status: "failed"; reason: string; nextAttemptAt: Date }
  /** Another run holds the lock, or settled it meanwhile. */
  | { status: "busy"; reason: string }

export async function settleBookingFailure(
  container: MedusaContainer,
  input: { merchant_order_id: string; lock_key: string; lock_owner?: string; error: unknown; retryable?: boolean }
): Promise<SettledFailure> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const { merchant_order_id: reference, error } = input
  // The service client's messages are redacted: they never hold the API key.
  const message = errorMessage(error)
  const code = error && typeof error === "object" ? (error as { code?: unknown }).code : undefined
  const { result, errors } = await recordBookingFailureWorkflow(container).run({
    input: {
      merchant_order_id: reference,
      lock_key: input.lock_key,
      lock_owner: input.lock_owner,
      retryable: input.retryable,
      error: { code: typeof code === "string" ? code : null, message },
    },
    throwOnError: false,
  })
  if (errors?.length) {
    // Another run holds the lock (or the write failed): the attempt stays `booking`, and the job's pass settles it.
    logger.warn(`lastmile: booking ${reference} failed and could not be recorded yet: ${message}`)
    return { status: "busy", reason: message }
  }
  if (result.status === "unchanged") {
    logger.warn(`lastmile: booking ${reference} failed, but another run settled it: ${message}`)
    return { status: "busy", reason: message }
  }
  if (result.status === "needs_attention") {
    logger.warn(`lastmile: booking ${reference} needs attention: ${message}`)
    return result
  }
  logger.warn(`lastmile: booking ${reference} failed, retrying from ${result.nextAttemptAt}: ${message}`)
  return { status: "failed", reason: result.reason, nextAttemptAt: new Date(result.nextAttemptAt) }
}
