/** Records a booked return on its task row; the compensation puts the row back as it was. */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService } from "../../../modules/lastmile/service"
import { recordBooked, restoreTaskRow } from "../../../lib/tasks/task-records"
import type { LastmileFulfillmentData } from "../../../lib/lastmile/contracts"

export const recordReturnBookedStepId = "lastmile-record-return-booked"

export const recordReturnBookedStep = createStep(
  recordReturnBookedStepId,
  async (input: { task_row_id: string; fulfillment_id: string; data: LastmileFulfillmentData }, { container }) => {
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const before = await tasks.retrieveLastmileTask(input.task_row_id)
    const booking = await recordBooked(tasks, before, input.fulfillment_id, input.data)
    return new StepResponse({ task_id: String(booking.taskId) }, before)
  },
  async (before, { container }) => {
    if (before) {
      await restoreTaskRow(container.resolve<LastmileModuleService>(LASTMILE_MODULE), before)
    }
  }
)
