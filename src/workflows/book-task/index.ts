/**
 * The one booking workflow, for every task (decisions 39 and 56): identify, lock, read, plan, then create the
 * fulfillment (whose hook books it) or book at the service and record the outcome, as data.
 */
import { acquireLockStep, createOrderFulfillmentWorkflow, releaseLockStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import type { BookingOutcome } from "../../lib/booking/booking-outcome"
import type { BookingPlan } from "../../lib/booking/booking-plan"
import { identifyTaskStep } from "./steps/identify-task"
import { readBookingStep } from "./steps/read-booking"
import { type PrepareBookingInput, prepareBookingStep } from "./steps/prepare-booking"
import { bookAtServiceStep } from "./steps/book-at-service"
import { recordBookingOutcomeStep } from "./steps/record-booking-outcome"
import { takeHookOutcomeStep } from "./steps/take-hook-outcome"
import { sendTaskNotificationsStep } from "../notify-task/steps/send-task-notifications"
import type { BookingTarget } from "../../lib/booking/booking-read"

export type { BookingTarget }

export interface BookTaskWorkflowInput extends Pick<PrepareBookingInput, "attempt" | "retry_needs_attention"> {
  target: BookingTarget
  /** The owner id of the task's lock (generated when absent). */
  lock_owner?: string
  /** The caller holds the task's lock under `lock_owner` already: this run takes none. */
  lock_held?: boolean
  /** Seconds to wait for the task's lock (default 60). The booking job waits for none: the holder books it. */
  lock_timeout?: number
}

/** What the run came to (`BookingOutcome`, lib/booking/booking-outcome.ts). */
export type BookTaskWorkflowOutput = BookingOutcome

export const bookTaskWorkflowId = "lastmile-book-task"

/** How long a fulfillment's shopper messages wait for its `order.fulfillment_created` event. */
export const FULFILLMENT_EVENT_WAIT_MS = 120_000

/** The lock of a task's booking (by its reference at the service), shared with everything that books it. */
export const bookingLockKey = (reference: string): string => `lastmile:booking:${reference}`

export const bookTaskWorkflow = createWorkflow(bookTaskWorkflowId, (input: BookTaskWorkflowInput) => {
  const identity = identifyTaskStep(input)
  // No key, no lock: for a task that is not the plugin's, or whose lock the caller holds.
  // (One transform per value: a property of a transform's result is not resolved.)
  const lockKey = transform({ input, identity }, ({ input, identity }) =>
    identity.action === "go" && !input.lock_held ? [bookingLockKey(identity.reference)] : []
  )
  const lockOwner = transform({ identity }, ({ identity }) => identity.lock_owner)
  const lockTimeout = transform({ input }, ({ input }) => input.lock_timeout ?? 60)
  acquireLockStep({ key: lockKey, ownerId: lockOwner, timeout: lockTimeout, ttl: 120, executeOnSubWorkflow: true })

  const reads = readBookingStep({ target: input.target, identity })
  const plan = prepareBookingStep(
    transform({ input, identity, reads }, ({ input, identity, reads }) => ({
      reads,
      identity,
      attempt: input.attempt,
      retry_needs_attention: input.retry_needs_attention,
    }))
  )

  const fulfilled = when("lastmile-book-task-when-fulfil", { plan }, ({ plan }) => plan.action === "fulfil").then(
    () => {
      const attempt = transform({ plan }, ({ plan }) => plan as Extract<BookingPlan, { action: "fulfil" }>)
      createOrderFulfillmentWorkflow.runAsStep({ input: transform({ attempt }, ({ attempt }) => attempt.fulfillment) })
      // The booking ran inside that workflow, in its hook, which handed back what it came to.
      return takeHookOutcomeStep({ lock_owner: lockOwner })
    }
  )

  const recorded = when("lastmile-book-task-when-book", { plan }, ({ plan }) => plan.action === "book").then(() => {
    const attempt = transform({ plan }, ({ plan }) => plan as Extract<BookingPlan, { action: "book" }>)
    const outcome = bookAtServiceStep(attempt)
    const recorded = recordBookingOutcomeStep(
      transform({ attempt, outcome }, ({ attempt, outcome }) => ({ ...attempt, outcome }))
    )
    // The shopper's "booked" message, or the merchant's feed after a failure (ARCHITECTURE.md, decision 45). A
    // fulfillment's shopper message waits for its `order.fulfillment_created` event, which carries the merchant's
    // `no_notification` (decision 60); the notification pass sends it if the event never comes.
    sendTaskNotificationsStep(
      transform({ attempt, input }, ({ attempt, input }) => ({
        task_row_id: attempt.task_row_id,
        ...(input.target.kind === "fulfillment" ? { hold_shopper_ms: FULFILLMENT_EVENT_WAIT_MS } : {}),
      }))
    )
    return recorded
  })

  // The outcome is recorded: a lock that cannot be released expires with its TTL rather than undo it.
  releaseLockStep({ key: lockKey, ownerId: lockOwner, executeOnSubWorkflow: true }).config({
    continueOnPermanentFailure: true,
  })

  const result = transform({ plan, fulfilled, recorded }, ({ plan, fulfilled, recorded }): BookingOutcome => {
    switch (plan.action) {
      case "skip":
        return plan.outcome
      case "refuse":
        return { status: "refused", code: plan.code, reason: plan.reason }
      case "fulfil":
        return fulfilled!
      case "book":
        return recorded!
    }
  })
  return new WorkflowResponse(result)
})
