/**
 * Settles a failed booking attempt (delivery or return) under the same lock
 * as the booking, so it never overwrites another run's outcome.
 */
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import {
  type RecordBookingFailureInput,
  type RecordedFailure,
  recordBookingFailureStep,
} from "./steps/record-booking-failure"
import { sendTaskNotificationsStep } from "../notify-task/steps/send-task-notifications"

export type RecordBookingFailureWorkflowInput = RecordBookingFailureInput & {
  /** The booking's lock key. */
  lock_key: string
  /** The lock's owner when the caller holds it already. */
  lock_owner?: string
}
export type { RecordedFailure }

export const recordBookingFailureWorkflowId = "lastmile-record-booking-failure"

export const recordBookingFailureWorkflow = createWorkflow(
  recordBookingFailureWorkflowId,
  (input: RecordBookingFailureWorkflowInput) => {
    const key = transform({ input }, ({ input }) => input.lock_key)
    // The caller may hold the booking's lock already (the plugin's own run): then it is the caller's.
    when("lastmile-record-failure-when-unlocked", { input }, ({ input }) => !input.lock_owner).then(() => {
      acquireLockStep({ key, timeout: 60, ttl: 30, executeOnSubWorkflow: true })
    })
    const stepInput = transform({ input }, ({ input }) => ({
      merchant_order_id: input.merchant_order_id,
      error: input.error,
      retryable: input.retryable,
    }))
    const recorded = recordBookingFailureStep(stepInput)
    sendTaskNotificationsStep(stepInput) // the merchant's feed (ARCHITECTURE.md, decision 50)
    when("lastmile-record-failure-when-own-lock", { input }, ({ input }) => !input.lock_owner).then(() => {
      releaseLockStep({ key, executeOnSubWorkflow: true })
    })
    return new WorkflowResponse(recorded)
  }
)
