/**
 * A failed run as a route's error (decision 30): a lock held for the whole wait is a refusal to try again, a Medusa
 * error from inside the run (a step's or a core flow's) keeps its type and words, anything else is unexpected.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { errorMessage } from "../lib/support/error-message"

const TYPES = new Set<string>(Object.values(MedusaError.Types))

/** One of a workflow run's errors: the step it came from, and what it threw. */
export interface WorkflowRunError {
  action?: string
  error: unknown
}

export function runRefusal(
  failed: WorkflowRunError,
  stopped: string,
  busy = "Another change to this task is running. Try again in a moment."
): MedusaError {
  if (failed.action === acquireLockStepId) {
    // Nothing was done: the merchant tries again.
    return new MedusaError(MedusaError.Types.NOT_ALLOWED, busy)
  }
  const error = failed.error
  const type = error && typeof error === "object" ? (error as { type?: unknown }).type : undefined
  if (typeof type === "string" && TYPES.has(type)) {
    return new MedusaError(type, errorMessage(error))
  }
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${stopped}: ${errorMessage(error)}`)
}
