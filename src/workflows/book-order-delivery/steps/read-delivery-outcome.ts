/** What the booking inside the run did, read from the task row (the row is the record, not a step's answer). */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService } from "../../../modules/lastmile/service"

export type DeliveryOutcome =
  { status: "booked"; task_id: string; adopted: boolean } | { status: "needs_attention"; reason: string }

export const readDeliveryOutcomeStepId = "lastmile-read-delivery-outcome"

export const readDeliveryOutcomeStep = createStep(
  readDeliveryOutcomeStepId,
  async (input: { task_row_id: string }, { container }) => {
    const task = await container.resolve<LastmileModuleService>(LASTMILE_MODULE).retrieveLastmileTask(input.task_row_id)
    const outcome: DeliveryOutcome =
      task.status === "booked" && task.task_id
        ? { status: "booked", task_id: task.task_id, adopted: task.adopted }
        : { status: "needs_attention", reason: "booked, but not recorded yet: the next run records it" }
    return new StepResponse(outcome)
  }
)
