/**
 * A failed run as a route's error (decision 30): a refusal from inside the run (a step's or a core flow's NOT_ALLOWED)
 * keeps its type and words; anything else is unexpected, said with what was stopped.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { errorMessage } from "../lib/support/error-message"

export function runRefusal(error: unknown, stopped: string): MedusaError {
  const refused = MedusaError.isMedusaError(error) && (error as MedusaError).type === MedusaError.Types.NOT_ALLOWED
  return refused
    ? new MedusaError(MedusaError.Types.NOT_ALLOWED, errorMessage(error))
    : new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${stopped}: ${errorMessage(error)}`)
}
