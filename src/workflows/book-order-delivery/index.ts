/**
 * Books an order's lastmile delivery (or collection) exactly once: under the
 * order's lock (across instances with Redis locking), the task row is written
 * before the service is called, Medusa's createOrderFulfillmentWorkflow
 * creates the fulfillment (whose provider call re-quotes and books), and the
 * booking is recorded from the fulfillment. A failed attempt fails this
 * workflow: its compensation notes the attempt as interrupted and releases
 * the lock, and `bookOrderDelivery` (src/lib/booking) records why.
 */
import { acquireLockStep, createOrderFulfillmentWorkflow, releaseLockStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import {
  type BookingSkip,
  type OrderBookingPlan,
  type PrepareOrderBookingInput,
  prepareOrderBookingStep,
} from "./steps/prepare-order-booking"
import { type OrderBooked, recordOrderBookedStep } from "./steps/record-order-booked"

export type BookOrderDeliveryWorkflowInput = PrepareOrderBookingInput

export type BookOrderDeliveryWorkflowOutput = BookingSkip | ({ status: "booked" } & OrderBooked)

export const bookOrderDeliveryWorkflowId = "lastmile-book-order-delivery"

/** The lock of an order's booking, shared with everything that books it. */
export const orderBookingLockKey = (orderId: string): string => `lastmile:booking:${orderId}`

export const bookOrderDeliveryWorkflow = createWorkflow(
  bookOrderDeliveryWorkflowId,
  (input: BookOrderDeliveryWorkflowInput) => {
    const key = transform({ input }, ({ input }) => orderBookingLockKey(input.order_id))
    // Also when a host app composes this workflow into its own: the order's lock is what books it once.
    acquireLockStep({ key, timeout: 60, ttl: 120, executeOnSubWorkflow: true })
    const plan = prepareOrderBookingStep(input)

    const booked = when("lastmile-book-when-planned", { plan }, ({ plan }) => plan.action === "book").then(() => {
      const fulfillmentInput = transform({ plan }, ({ plan }) => planned(plan).fulfillment)
      createOrderFulfillmentWorkflow.runAsStep({ input: fulfillmentInput })
      const recordInput = transform({ plan, input }, ({ plan, input }) => ({
        order_id: input.order_id,
        task_row_id: planned(plan).task_row_id,
      }))
      // Recording must never undo a booking the service made: a failure here leaves the attempt
      // `booking`, and the next run finds the booked fulfillment and records it.
      return recordOrderBookedStep(recordInput).config({ continueOnPermanentFailure: true })
    })

    releaseLockStep({ key, executeOnSubWorkflow: true })
    const outcome = transform({ plan, booked }, ({ plan, booked }): BookOrderDeliveryWorkflowOutput =>
      booked
        ? { status: "booked", ...booked }
        : plan.action === "skip"
          ? plan.outcome
          : { status: "needs_attention", reason: "booked, but not recorded yet: the next run records it" }
    )
    return new WorkflowResponse(outcome)
  }
)

/** The plan of an attempt (the branch runs only for those). */
function planned(plan: OrderBookingPlan): Extract<OrderBookingPlan, { action: "book" }> {
  if (plan.action !== "book") {
    throw new Error("lastmile: no booking was planned")
  }
  return plan
}
