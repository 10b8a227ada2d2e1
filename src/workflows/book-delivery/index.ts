/**
 * Books one lastmile fulfillment Medusa created, whoever created it: the
 * plugin's own run at placement, the dashboard's Create fulfillment, an
 * exchange's or a claim's replacement, a host app's
 * `createOrderFulfillmentWorkflow`. The plugin's `fulfillmentCreated` hook
 * runs it (through `bookFulfillment`, ./run.ts) inside that workflow, so a
 * refusal undoes the fulfillment with the reason (ARCHITECTURE.md, decision
 * 19). Under the delivery's lock (its reference at the service), the task row
 * is written before the service is called, the booking core quotes and
 * books, and the booking is recorded on the fulfillment and the row.
 */
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import type { DeliveryPlan } from "./identify-delivery"
import { prepareDeliveryBookingStep } from "./steps/prepare-delivery-booking"
import { bookAtServiceStep } from "../steps/book-at-service"
import { recordBookedStep } from "../steps/record-booked"
import { sendTaskNotificationsStep } from "../notify-task/steps/send-task-notifications"

export interface BookDeliveryWorkflowInput {
  /** What to book, read from the fulfillment and its order (`identifyDelivery`). */
  plan: DeliveryPlan
  /** The plugin's own run: its first attempt at this delivery (no lookup needed first). */
  first_attempt?: boolean
  /** Set when the caller holds the delivery's lock already (the plugin's own run): then this run takes none. */
  lock_owner?: string
  /** The attempt the caller started on the task row (the plugin's own run). */
  attempt?: number
}

export type BookDeliveryWorkflowOutput =
  | { status: "already_recorded"; merchant_order_id: string }
  | { status: "booked"; merchant_order_id: string; task_id: string; adopted: boolean }

export const bookDeliveryWorkflowId = "lastmile-book-delivery"

/** The lock of a delivery's booking (by its reference at the service), shared with everything that books it. */
export const deliveryLockKey = (merchantOrderId: string): string => `lastmile:booking:${merchantOrderId}`

export const bookDeliveryWorkflow = createWorkflow(bookDeliveryWorkflowId, (input: BookDeliveryWorkflowInput) => {
  const key = transform({ input }, ({ input }) => deliveryLockKey(input.plan.unit.merchantOrderId))
  // The delivery's lock is what books it once; the plugin's own run holds it already (and releases it after its
  // own compensations, so neither this run's release nor its compensation may release it early).
  when("lastmile-book-delivery-when-unlocked", { input }, ({ input }) => !input.lock_owner).then(() => {
    acquireLockStep({ key, timeout: 60, ttl: 120, executeOnSubWorkflow: true })
  })
  const attempt = prepareDeliveryBookingStep({
    plan: input.plan,
    first_attempt: input.first_attempt,
    attempt: input.attempt,
  })
  const recorded = when("lastmile-book-delivery-when-new", { attempt }, ({ attempt }) => !attempt.recorded).then(() => {
    const subject = transform({ input, attempt }, ({ input, attempt }) => ({
      ...input.plan.subject,
      lookupFirst: attempt.lookup_first,
    }))
    const booking = bookAtServiceStep(subject)
    const record = transform({ input, attempt, booking }, ({ input, attempt, booking }) => ({
      task_row_id: attempt.task_row_id,
      fulfillment_id: input.plan.fulfillment_id,
      booked: booking,
      shown: input.plan.shown,
    }))
    const booked = recordBookedStep(record)
    sendTaskNotificationsStep(record) // the booked message (ARCHITECTURE.md, decision 50)
    return booked
  })
  when("lastmile-book-delivery-when-own-lock", { input }, ({ input }) => !input.lock_owner).then(() => {
    releaseLockStep({ key, executeOnSubWorkflow: true })
  })
  const outcome = transform({ input, recorded }, ({ input, recorded }): BookDeliveryWorkflowOutput => {
    const merchant_order_id = input.plan.unit.merchantOrderId
    return recorded
      ? { status: "booked", merchant_order_id, task_id: recorded.task_id, adopted: recorded.adopted }
      : { status: "already_recorded", merchant_order_id }
  })
  return new WorkflowResponse(outcome)
})
