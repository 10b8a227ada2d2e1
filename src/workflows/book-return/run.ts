/**
 * Runs a return's booking, and when it fails, records why by the error's
 * booking code. Never throws: its callers are subscribers, a job and a route.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { bookReturnWorkflow, returnBookingLockKey } from "./index"
import { type SettledFailure, settleBookingFailure } from "../record-booking-failure/run"

export type ReturnBookingOutcome =
  | { status: "booked"; taskId: string }
  | { status: "already_booked" }
  | { status: "not_lastmile" }
  | { status: "cancelled" }
  | { status: "needs_attention"; reason: string }
  | SettledFailure

export async function bookReturn(
  container: MedusaContainer,
  returnId: string,
  options: { retryNeedsAttention?: boolean; lockTimeout?: number } = {}
): Promise<ReturnBookingOutcome> {
  const { result, errors } = await bookReturnWorkflow(container).run({
    input: {
      return_id: returnId,
      retry_needs_attention: options.retryNeedsAttention,
      lock_timeout: options.lockTimeout,
    },
    throwOnError: false,
  })
  const failure = errors?.[0]
  if (!failure) {
    if (result.status === "booked") {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .info(`lastmile: return ${returnId} booked as task ${result.task_id}`)
      return { status: "booked", taskId: result.task_id }
    }
    return result
  }
  if (failure.action === acquireLockStepId) {
    return { status: "busy", reason: "another run holds the return's lock" }
  }
  return settleBookingFailure(container, {
    merchant_order_id: returnId,
    lock_key: returnBookingLockKey(returnId),
    error: failure.error,
  })
}
