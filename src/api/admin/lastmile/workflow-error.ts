/**
 * A failed workflow's error as the admin route's answer. The workflow engine
 * keeps a MedusaError's `type` but not its class (ARCHITECTURE.md, decision
 * 12), so a refusal keeps its type and words (unknown id → 404, a reason to
 * act on → 400); anything else (the service down, a bug) is unexpected and
 * says what stopped.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { errorMessage } from "../../../lib/support/error-message"

const TYPES = new Set<string>(Object.values(MedusaError.Types))

/** One of a workflow run's errors: the step it came from, and what it threw. */
export interface WorkflowRunError {
  action?: string
  error: unknown
}

export function workflowError(failed: WorkflowRunError, stopped: string): MedusaError {
  if (failed.action === acquireLockStepId) {
    // Another setup or mapping change held the lock for the whole wait: nothing was done; the merchant tries again.
    return new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "Another lastmile setup or location change is running. Try again in a moment."
    )
  }
  const error = failed.error
  const type = error && typeof error === "object" ? (error as { type?: unknown }).type : undefined
  if (typeof type === "string" && TYPES.has(type)) {
    return new MedusaError(type, errorMessage(error))
  }
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${stopped}: ${errorMessage(error)}`)
}
