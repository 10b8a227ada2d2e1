/**
 * A cancelled order's tasks never booked are closed (`cancelled`), so neither the retry job, nor a late `order.placed`,
 * nor a replacement's booking books them again. Its compensation puts them back.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"

export const closeCancelledOrderTasksStepId = "lastmile-close-cancelled-order-tasks"

export const closeCancelledOrderTasksStep = createStep(
  closeCancelledOrderTasksStepId,
  async (input: { order_id: string }, { container }) => {
    const open = await TaskRowsService.of(container).closeUnbooked(
      { order_id: input.order_id },
      "The order was cancelled before this was booked: it is never booked."
    )
    return new StepResponse(
      open.map((t) => t.id),
      open
    )
  },
  async (before: TaskRow[] | undefined, { container }) => {
    const tasks = TaskRowsService.of(container)
    for (const task of before ?? []) {
      await tasks.restore(task)
    }
  }
)
