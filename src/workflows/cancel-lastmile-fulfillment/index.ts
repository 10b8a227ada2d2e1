/**
 * Cancels Medusa's side of a booked lastmile task (decision 6), once the service reports it cancelled or the merchant
 * cancels anyway: the fulfillment is marked cancellable, then cancelled through Medusa's own flow.
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
      reason: input.reason,
    }))
    const cancellation = markCancelledStep(mark)
    when("lastmile-cancel-order-fulfillment", { input }, ({ input }) => input.kind === "delivery").then(() => {
      const order = transform({ input }, ({ input }) => ({
        order_id: input.order_id,
        fulfillment_id: input.fulfillment_id,
      }))
      // Reservations back, so the merchant's order cancel then succeeds, with Medusa's own refund.
      cancelOrderFulfillmentWorkflow.runAsStep({ input: order })
    })
    when("lastmile-cancel-return-fulfillment", { input }, ({ input }) => input.kind === "return").then(() => {
      const fulfillment = transform({ input }, ({ input }) => ({ id: input.fulfillment_id }))
      // So the return can be cancelled.
      cancelFulfillmentWorkflow.runAsStep({ input: fulfillment })
    })
    return new WorkflowResponse(cancellation)
  }
)
