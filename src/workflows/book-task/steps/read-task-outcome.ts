/** What the booking inside the fulfillment this run created came to, read from the task row (the row is the record). */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import type { RecordedOutcome } from "./record-booking-outcome"

export type TaskOutcome = RecordedOutcome | { status: "booking"; reason: string }

export const readTaskOutcomeStepId = "lastmile-read-task-outcome"

export const readTaskOutcomeStep = createStep(
  readTaskOutcomeStepId,
  async (input: { task_row_id: string }, { container }) => {
    const task = await TaskRowsService.of(container).retrieve(input.task_row_id)
    return new StepResponse<TaskOutcome>(taskOutcomeOf(task))
  }
)

export function taskOutcomeOf(task: TaskRow): TaskOutcome {
  if (task.status === "booked" && task.task_id) {
    return { status: "booked", task_row_id: task.id, task_id: task.task_id, adopted: task.adopted }
  }
  if (task.status === "needs_attention") {
    return { status: "needs_attention", reason: task.last_error ?? "waiting for the merchant" }
  }
  if (task.status === "failed" && task.next_attempt_at) {
    return {
      status: "failed",
      reason: task.last_error ?? "the booking failed",
      next_attempt_at: new Date(task.next_attempt_at).toISOString(),
    }
  }
  return { status: "booking", reason: task.last_error ?? "the booking is not recorded yet: the next run records it" }
}
