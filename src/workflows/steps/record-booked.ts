/**
 * Records a booking (delivery or return) where the merchant and the shopper
 * see it: the fulfillment's public data and tracking labels, and the task
 * row. Ordered so that no failure can undo a booking the service made:
 * the row first learns the task (still `booking`), then the fulfillment gets
 * it, then the row is marked booked. Until the fulfillment holds the
 * booking, a failure here fails the run (the fulfillment, still pending, is
 * undone by Medusa, and the next attempt adopts the task by a lookup);
 * after that it never does (the retry job's pass records a row left
 * `booking` from its fulfillment).
 */
import type { IFulfillmentModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import type { BookedAtService } from "../../lib/booking/book-at-service"
import { toFulfillmentData, toLabels } from "../../lib/contracts/plugin-data"
import { errorMessage } from "../../lib/support/error-message"

export interface RecordBookedInput {
  task_row_id: string
  fulfillment_id: string
  booked: BookedAtService
  shown: Parameters<typeof toFulfillmentData>[1]
}

export interface RecordedBooking {
  task_id: string
  adopted: boolean
}

export const recordBookedStepId = "lastmile-record-booked"

export const recordBookedStep = createStep(recordBookedStepId, async (input: RecordBookedInput, { container }) => {
  const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const { task, adopted, rate } = input.booked
  const fields = {
    task_id: String(task.taskId),
    tracking_id: task.trackingId ?? null,
    tracking_url: task.trackingUrl ?? null,
    rate_code: rate?.rateCode ?? null,
    service_status: task.status?.value ?? null,
    adopted,
  }
  const row = await tasks.updateLastmileTasks({
    id: input.task_row_id,
    fulfillment_id: input.fulfillment_id,
    ...fields,
  })
  const data = toFulfillmentData(task, {
    ...input.shown,
    rateName: rate?.name ?? input.shown.rateName ?? null,
    window: rate?.window ? { from: rate.window.from, to: rate.window.to } : (input.shown.window ?? null),
  })
  await container
    .resolve<IFulfillmentModuleService>(Modules.FULFILLMENT)
    // Medusa's input type leaves labels out, but the module stores them.
    .updateFulfillment(input.fulfillment_id, { data, labels: toLabels(data) } as never)
  try {
    await tasks.recordBooked(row, input.fulfillment_id, fields)
  } catch (error) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .warn(
        `lastmile: task ${fields.task_id} is booked and on its fulfillment, but its row could not be marked booked yet (${errorMessage(error)}); the booking job finishes it`
      )
  }
  return new StepResponse<RecordedBooking>({ task_id: fields.task_id, adopted })
})
