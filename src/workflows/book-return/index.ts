/**
 * Books a return that uses the lastmile-return option with the service,
 * keyed on the return id, under the return's lock, through the same booking
 * core as deliveries. Medusa gives the provider neither the order nor the
 * customer's address for returns, so this runs from the events of each road
 * (`order.return_requested`, `order.exchange_created`, `order.claim_created`).
 * The fulfillment gets the tracking, and the task row records the booking. A
 * failed attempt fails the workflow; `bookReturn` (./run.ts) records why. A
 * return is never posted twice blindly.
 */
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import {
  type ReturnBookingPlan,
  type ReturnBookingSkip,
  prepareReturnBookingStep,
} from "./steps/prepare-return-booking"
import { bookAtServiceStep } from "../steps/book-at-service"
import { recordBookedStep } from "../steps/record-booked"
import { sendTaskNotificationsStep } from "../notify-task/steps/send-task-notifications"

export interface BookReturnWorkflowInput {
  return_id: string
  /** The merchant asked for it: a return waiting for their decision is booked again too. */
  retry_needs_attention?: boolean
  /** Seconds to wait for the return's lock (default 60). The retry job waits for none: the holder books it. */
  lock_timeout?: number
}

export type BookReturnWorkflowOutput = ReturnBookingSkip | { status: "booked"; task_id: string }

export const bookReturnWorkflowId = "lastmile-book-return"

export const returnBookingLockKey = (returnId: string): string => `lastmile:return:${returnId}`

export const bookReturnWorkflow = createWorkflow(bookReturnWorkflowId, (input: BookReturnWorkflowInput) => {
  const key = transform({ input }, ({ input }) => returnBookingLockKey(input.return_id))
  const timeout = transform({ input }, ({ input }) => input.lock_timeout ?? 60)
  acquireLockStep({ key, timeout, ttl: 120, executeOnSubWorkflow: true })
  const plan = prepareReturnBookingStep(input)

  const booked = when("lastmile-book-return-when-planned", { plan }, ({ plan }) => plan.action === "book").then(() => {
    const attempt = transform({ plan }, ({ plan }) => planned(plan))
    const subject = transform({ attempt }, ({ attempt }) => attempt.subject)
    const booking = bookAtServiceStep(subject)
    const record = transform({ attempt, booking }, ({ attempt, booking }) => ({
      task_row_id: attempt.task_row_id,
      fulfillment_id: attempt.fulfillment_id,
      booked: booking,
      shown: { kind: "return" as const },
    }))
    const booked = recordBookedStep(record)
    sendTaskNotificationsStep(record) // the booked message (ARCHITECTURE.md, decision 50)
    return booked
  })

  releaseLockStep({ key, executeOnSubWorkflow: true })
  const outcome = transform({ plan, booked }, ({ plan, booked }): BookReturnWorkflowOutput =>
    plan.action === "skip" ? plan.outcome : { status: "booked", task_id: booked?.task_id ?? "" }
  )
  return new WorkflowResponse(outcome)
})

/** The plan of an attempt (the branch runs only for those). */
function planned(plan: ReturnBookingPlan): Extract<ReturnBookingPlan, { action: "book" }> {
  if (plan.action !== "book") {
    throw new Error("lastmile: no return booking was planned")
  }
  return plan
}
