/**
 * A failed workflow's error as the admin route's answer, by its type and code (decision 30): a refusal 404 or 400 in
 * its own words, the service failing 502 (504 for a timeout), anything else unexpected.
 */
import type { MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { describeRefusal, serviceErrorCodeOf } from "../../../lib/service-client"
import { type WorkflowRunError, runRefusal } from "../../../workflows/run-refusal"

export type { WorkflowRunError }

/** The answer for the service's failure: Medusa's error shape, with the service's code. */
export interface ServiceFailureAnswer {
  status: 502 | 504
  body: { type: "lastmile_service_error"; code: string; message: string }
}

/** A 502 (504 for a timeout) naming what the service did, when `error` is the service's failure; else null. */
export function serviceFailureAnswer(error: unknown, stopped: string): ServiceFailureAnswer | null {
  const code = serviceErrorCodeOf(error)
  if (!code) {
    return null
  }
  return {
    status: code === "timeout" ? 504 : 502,
    body: {
      type: "lastmile_service_error",
      code: `lastmile_service_${code}`,
      message: `${stopped}: ${describeRefusal(error)}`,
    },
  }
}

export function workflowError(failed: WorkflowRunError, stopped: string): MedusaError {
  // Another setup or mapping change held the lock for the whole wait: nothing was done; the merchant tries again.
  return runRefusal(failed, stopped, "Another lastmile setup or location change is running. Try again in a moment.")
}

/** Answers a failed run: a 502/504 when the service failed, else throws the MedusaError for Medusa to answer. */
export function answerWorkflowError(res: MedusaResponse, failed: WorkflowRunError, stopped: string): void {
  const service = failed.action === acquireLockStepId ? null : serviceFailureAnswer(failed.error, stopped)
  if (service) {
    res.status(service.status).json(service.body)
    return
  }
  throw workflowError(failed, stopped)
}
