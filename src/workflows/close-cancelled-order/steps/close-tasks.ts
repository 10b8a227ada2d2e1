/**
 * A cancelled order's tasks that were never booked are closed (`cancelled`),
 * so neither the retry job, nor a late `order.placed`, nor a replacement's
 * booking books them again. Its compensation puts them back.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService, TaskRow } from "../../../modules/lastmile/service"

export const closeCancelledOrderTasksStepId = "lastmile-close-cancelled-order-tasks"

export const closeCancelledOrderTasksStep = createStep(
  closeCancelledOrderTasksStepId,
  async (input: { order_id: string }, { container }) => {
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const open = await tasks.closeUnbookedTasks(
      { order_id: input.order_id },
      "The order was cancelled before this was booked: it is never booked."
    )
    return new StepResponse(
      open.map((t) => t.id),
      open
    )
  },
  async (before: TaskRow[] | undefined, { container }) => {
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    for (const task of before ?? []) {
      await tasks.restoreTaskRow(task)
    }
  }
)
