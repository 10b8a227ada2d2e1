/** The merchant dealt with a task's notice (an edit after booking): it is cleared, and the history says so. */
import { WorkflowResponse, createWorkflow } from "@medusajs/framework/workflows-sdk"
import { dismissTaskNoticeStep } from "./steps/dismiss-task-notice"

export const dismissTaskNoticeWorkflowId = "lastmile-dismiss-task-notice"

export const dismissTaskNoticeWorkflow = createWorkflow(
  dismissTaskNoticeWorkflowId,
  (input: { task_row_id: string; actor_id?: string | null }) => new WorkflowResponse(dismissTaskNoticeStep(input))
)
