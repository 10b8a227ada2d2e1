/**
 * Cancels Medusa's side of a booked lastmile task (ARCHITECTURE.md,
 * decision 6): once the service reports the task cancelled (the tracking
 * sync runs this), or when the merchant cancels it deliberately before the
 * service says so (the admin's Cancel anyway). The fulfillment is marked as
 * cancellable, then cancelled through Medusa's own flow: an order's through
 * `cancelOrderFulfillmentWorkflow` (reservations back, so the merchant's
 * order cancel then succeeds, with Medusa's own refund), a return's through
 * `cancelFulfillmentWorkflow` (so the return can be cancelled).
 */
import { cancelFulfillmentWorkflow, cancelOrderFulfillmentWorkflow } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import { type MarkCancelledInput, markCancelledStep } from "./steps/mark-cancelled"

export type CancelLastmileFulfillmentWorkflowInput = MarkCancelledInput & {
  kind: "delivery" | "return"
  order_id: string
}

export const cancelLastmileFulfillmentWorkflowId = "lastmile-cancel-fulfillment"

export const cancelLastmileFulfillmentWorkflow = createWorkflow(
  cancelLastmileFulfillmentWorkflowId,
  (input: CancelLastmileFulfillmentWorkflowInput) => {
    const mark = transform({ input }, ({ input }) => ({
      task_row_id: input.task_row_id,
      fulfillment_id: input.fulfillment_id,
      by: input.by,
      actor_id: input.actor_id,
      service_status: input.service_status,
      close_tracking: input.close_tracking,
    }))
    const cancellation = markCancelledStep(mark)
    when("lastmile-cancel-order-fulfillment", { input }, ({ input }) => input.kind === "delivery").then(() => {
      const order = transform({ input }, ({ input }) => ({
        order_id: input.order_id,
        fulfillment_id: input.fulfillment_id,
      }))
      cancelOrderFulfillmentWorkflow.runAsStep({ input: order })
    })
    when("lastmile-cancel-return-fulfillment", { input }, ({ input }) => input.kind === "return").then(() => {
      const fulfillment = transform({ input }, ({ input }) => ({ id: input.fulfillment_id }))
      cancelFulfillmentWorkflow.runAsStep({ input: fulfillment })
    })
    return new WorkflowResponse(cancellation)
  }
)
