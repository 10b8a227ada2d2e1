/** The merchant dealt with a task's notice (an edit after booking): it is cleared, and the history says so. */
import { StepResponse, WorkflowResponse, createStep, createWorkflow } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService, TaskRow } from "../../modules/lastmile/service"
import { withHistoryEntry } from "../../lib/tracking/task-history"

export const dismissTaskNoticeStepId = "lastmile-dismiss-task-notice"

const dismissTaskNoticeStep = createStep(
  dismissTaskNoticeStepId,
  async (input: { task_row_id: string; actor_id?: string | null }, { container }) => {
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const before = await tasks.retrieveLastmileTask(input.task_row_id)
    if (!before.notice) {
      return new StepResponse<boolean, TaskRow | null>(false, null)
    }
    await tasks.updateLastmileTasks({
      id: before.id,
      notice: null,
      status_history: withHistoryEntry(before.status_history, {
        value: "notice_dismissed",
        source: "admin",
        detail: `Dealt with by ${input.actor_id ?? "an admin user"}: ${(before.notice as { message?: string }).message ?? ""}`,
      }),
    })
    return new StepResponse<boolean, TaskRow | null>(true, before)
  },
  async (before, { container }) => {
    if (before) {
      await container.resolve<LastmileModuleService>(LASTMILE_MODULE).restoreTaskRow(before)
    }
  }
)

export const dismissTaskNoticeWorkflowId = "lastmile-dismiss-task-notice"

export const dismissTaskNoticeWorkflow = createWorkflow(
  dismissTaskNoticeWorkflowId,
  (input: { task_row_id: string; actor_id?: string | null }) => new WorkflowResponse(dismissTaskNoticeStep(input))
)
