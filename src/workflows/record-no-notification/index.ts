/**
 * Records the merchant's `no_notification` on a return, an exchange or a claim, where Medusa keeps it (decision 60),
 * so the plugin's messages about it honour the dashboard's "Send notification" switch.
 */
import { WorkflowResponse, createWorkflow } from "@medusajs/framework/workflows-sdk"
import { type SwitchedRecord, recordNoNotificationStep } from "./steps/record-no-notification"

export type RecordNoNotificationWorkflowInput = SwitchedRecord

export const recordNoNotificationWorkflowId = "lastmile-record-no-notification"

export const recordNoNotificationWorkflow = createWorkflow(
  recordNoNotificationWorkflowId,
  (input: RecordNoNotificationWorkflowInput) => new WorkflowResponse(recordNoNotificationStep(input))
)
