/**
 * Sends a task's due messages (decision 45): the notification pass runs it for tasks whose retry or reminder is due,
 * a host app after changing a task itself; the tracking sync and the booking use its step directly.
 */
import { WorkflowResponse, createWorkflow } from "@medusajs/framework/workflows-sdk"
import {
  type SendTaskNotificationsInput,
  type SentTaskNotifications,
  sendTaskNotificationsStep,
} from "./steps/send-task-notifications"

export { type SendTaskNotificationsInput, type SentTaskNotifications, sendTaskNotificationsStep }

export type NotifyTaskWorkflowInput = Pick<
  SendTaskNotificationsInput,
  "task_row_id" | "merchant_order_id" | "now" | "fulfillment_no_notification"
>

export const notifyTaskWorkflowId = "lastmile-notify-task"

export const notifyTaskWorkflow = createWorkflow(notifyTaskWorkflowId, (input: NotifyTaskWorkflowInput) => {
  return new WorkflowResponse(sendTaskNotificationsStep(input))
})
