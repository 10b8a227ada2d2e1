/**
 * The plugin's own booking of a delivery: an order's at placement, a
 * replacement's when its exchange or claim is confirmed, either again after
 * a failure. Exactly once: under the delivery's lock (across instances with
 * Redis locking), the task row is written first, then Medusa's
 * createOrderFulfillmentWorkflow creates the fulfillment, and the plugin's
 * `fulfillmentCreated` hook books it inside that workflow, with the same
 * lock (ARCHITECTURE.md, decision 19). A failed attempt fails this workflow:
 * its compensation notes the attempt as interrupted and releases the lock,
 * and `bookOrderDelivery` (./run.ts) records why.
 */
import { acquireLockStep, createOrderFulfillmentWorkflow, releaseLockStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import {
  type OrderBookingPlan,
  type PrepareOrderBookingInput,
  prepareOrderBookingStep,
} from "./steps/prepare-order-booking"
import type { BookingSkip } from "../../lib/booking/booking-codes"
import { readDeliveryOutcomeStep } from "./steps/read-delivery-outcome"
import { bookDeliveryWorkflow, deliveryLockKey } from "../book-delivery"
import { identifyDeliveryStep } from "../book-delivery/steps/identify-delivery"

export type BookOrderDeliveryWorkflowInput = PrepareOrderBookingInput & {
  /** Seconds to wait for the delivery's lock (default 60). The retry job waits for none: the holder books it. */
  lock_timeout?: number
}

export type BookOrderDeliveryWorkflowOutput =
  BookingSkip | { status: "booked"; task_id: string; adopted: boolean } | { status: "needs_attention"; reason: string }

export const bookOrderDeliveryWorkflowId = "lastmile-book-order-delivery"

export const bookOrderDeliveryWorkflow = createWorkflow(
  bookOrderDeliveryWorkflowId,
  (input: BookOrderDeliveryWorkflowInput) => {
    const key = transform({ input }, ({ input }) => deliveryLockKey(input.reference_id ?? input.order_id))
    const timeout = transform({ input }, ({ input }) => input.lock_timeout ?? 60)
    // Also when a host app composes this workflow into its own: the delivery's lock is what books it once.
    acquireLockStep({ key, ownerId: input.lock_owner, timeout, ttl: 120, executeOnSubWorkflow: true })
    const plan = prepareOrderBookingStep(input)
    when("lastmile-book-order-when-planned", { plan }, ({ plan }) => plan.action === "book").then(() => {
      createOrderFulfillmentWorkflow.runAsStep({
        input: transform({ plan }, ({ plan }) => planned(plan, "book").fulfillment),
      })
    })
    // The fulfillment exists already (a process stopped inside Medusa's workflow): the hook's booking, run on it.
    when("lastmile-book-order-when-fulfillment-exists", { plan }, ({ plan }) => plan.action === "book_existing").then(
      () => {
        const existing = transform({ plan }, ({ plan }) => planned(plan, "book_existing"))
        const delivery = identifyDeliveryStep(
          transform({ existing }, ({ existing }) => ({ fulfillment_id: existing.fulfillment_id }))
        )
        bookDeliveryWorkflow.runAsStep({
          input: transform({ delivery, existing, input }, ({ delivery, existing, input }) => ({
            plan: delivery,
            lock_owner: input.lock_owner,
            attempt: existing.attempts,
          })),
        })
      }
    )
    const booked = when("lastmile-book-order-when-attempted", { plan }, ({ plan }) => plan.action !== "skip").then(() =>
      readDeliveryOutcomeStep(
        transform({ plan }, ({ plan }) => ({ task_row_id: (plan as { task_row_id: string }).task_row_id }))
      )
    )
    releaseLockStep({ key, ownerId: input.lock_owner, executeOnSubWorkflow: true })
    const outcome = transform({ plan, booked }, ({ plan, booked }): BookOrderDeliveryWorkflowOutput =>
      plan.action === "skip" ? plan.outcome : booked!
    )
    return new WorkflowResponse(outcome)
  }
)

/** The plan of an attempt of this kind (each branch runs only for its own). */
function planned<A extends "book" | "book_existing">(
  plan: OrderBookingPlan,
  action: A
): Extract<OrderBookingPlan, { action: A }> {
  if (plan.action !== action) {
    throw new Error(`lastmile: no ${action} was planned`)
  }
  return plan as Extract<OrderBookingPlan, { action: A }>
}
