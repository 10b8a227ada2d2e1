/**
 * Records the booking on the task row, read back from the fulfillment Medusa
 * stored (the row is the record, not the workflow's answer). Its compensation
 * puts the row back as it was, so a later failure leaves the attempt to the
 * runner and the retry job.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService } from "../../../modules/lastmile/service"
import { findBookedFulfillment, recordBooked, restoreTaskRow } from "../../../lib/tasks/task-records"
import { BookingNotRecordedError } from "../../../lib/tasks/booking-errors"

export interface OrderBooked {
  task_id: string
  adopted: boolean
}

export const recordOrderBookedStepId = "lastmile-record-order-booked"

export const recordOrderBookedStep = createStep(
  recordOrderBookedStepId,
  async (input: { order_id: string; task_row_id: string }, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const { data } = await query.graph({
      entity: "order",
      fields: ["fulfillments.id", "fulfillments.data", "fulfillments.canceled_at"],
      filters: { id: input.order_id },
    })
    const order: { fulfillments?: ({ id: string; canceled_at?: unknown; data?: unknown } | null)[] | null } =
      data[0] ?? {}
    const fulfillment = findBookedFulfillment(order.fulfillments)
    if (!fulfillment) {
      throw new BookingNotRecordedError()
    }
    const before = await tasks.retrieveLastmileTask(input.task_row_id)
    const booking = await recordBooked(tasks, before, fulfillment.id, fulfillment.data)
    const booked: OrderBooked = { task_id: String(booking.taskId), adopted: booking.adopted === true }
    return new StepResponse(booked, before)
  },
  async (before, { container }) => {
    if (before) {
      await restoreTaskRow(container.resolve<LastmileModuleService>(LASTMILE_MODULE), before)
    }
  }
)
