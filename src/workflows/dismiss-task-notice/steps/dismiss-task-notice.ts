/** The merchant dealt with a task's notice (an edit after booking): it is cleared, and the history says so. */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { withHistoryEntry } from "../../../lib/tracking/task-history"

export const dismissTaskNoticeStepId = "lastmile-dismiss-task-notice"

export const dismissTaskNoticeStep = createStep(
  dismissTaskNoticeStepId,
  async (input: { task_row_id: string; actor_id?: string | null }, { container }) => {
    const tasks = TaskRowsService.of(container)
    const before = await tasks.retrieve(input.task_row_id)
    if (!before.notice) {
      return new StepResponse<boolean, TaskRow | null>(false, null)
    }
    await tasks.update({
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
      await TaskRowsService.of(container).restore(before)
    }
  }
)
