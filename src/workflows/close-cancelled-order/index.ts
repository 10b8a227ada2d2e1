/** Closes a cancelled order's unbooked lastmile tasks (`order.canceled`): a cancelled order is never booked. */
import { WorkflowResponse, createWorkflow } from "@medusajs/framework/workflows-sdk"
import { closeCancelledOrderTasksStep } from "./steps/close-tasks"

export const closeCancelledOrderWorkflowId = "lastmile-close-cancelled-order"

export const closeCancelledOrderWorkflow = createWorkflow(
  closeCancelledOrderWorkflowId,
  (input: { order_id: string }) => {
    return new WorkflowResponse(closeCancelledOrderTasksStep(input))
  }
)
