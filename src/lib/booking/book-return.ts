/**
 * Runs a return's booking: the return booking workflow, and when it fails,
 * the failure recorder (by the error's booking code). Never throws.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { bookReturnWorkflow, returnBookingLockKey } from "../../workflows/book-return"
import { settleFailure } from "./settle-failure"

export type ReturnBookingOutcome =
  | { status: "booked"; taskId: string }
  | { status: "already_booked" }
  | { status: "needs_attention"; reason: string }
  | { status: "failed"; reason: string; nextAttemptAt?: Date }
  | { status: "not_lastmile" }
  | { status: "busy" }

export async function bookReturn(container: MedusaContainer, returnId: string): Promise<ReturnBookingOutcome> {
  const { result, errors } = await bookReturnWorkflow(container).run({
    input: { return_id: returnId },
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
    return { status: "busy" }
  }
  return settleFailure(container, returnId, returnBookingLockKey(returnId), failure.error)
}
