/**
 * Reads the return and decides: nothing to book (no lastmile return
 * fulfillment, already booked, waiting for the merchant), or an attempt, whose
 * task row (keyed on the return id) is written before the service is called.
 * If the attempt fails, the compensation notes it as interrupted; the runner then
 * records why.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService } from "../../../modules/lastmile/service"
import { LASTMILE_PROVIDER_ID } from "../../../lib/lastmile/fulfillment-options"
import type { BookingSkip } from "../../book-order-delivery/steps/prepare-order-booking"
import { findOrCreateTask, undoAttempt, startAttempt } from "../../../lib/tasks/task-records"

/** The same outcomes as a delivery's when nothing is booked. */
export type ReturnBookingSkip = BookingSkip

export type ReturnBookingPlan =
  | { action: "skip"; outcome: ReturnBookingSkip }
  | { action: "book"; task_row_id: string; attempts: number; return_id: string; fulfillment_id: string }

interface ReturnRow {
  id: string
  order_id: string
  fulfillments?: ({ id: string; provider_id?: string | null; canceled_at?: unknown } | null)[] | null
}

type Attempt = { task_row_id: string | null; attempts: number }

export const prepareReturnBookingStepId = "lastmile-prepare-return-booking"

export const prepareReturnBookingStep = createStep(
  prepareReturnBookingStepId,
  async (input: { return_id: string }, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const skip = (outcome: ReturnBookingSkip) =>
      new StepResponse<ReturnBookingPlan, Attempt>({ action: "skip", outcome }, { task_row_id: null, attempts: 0 })

    const { data } = await query.graph({
      entity: "return",
      fields: ["id", "order_id", "fulfillments.id", "fulfillments.provider_id", "fulfillments.canceled_at"],
      filters: { id: input.return_id },
    })
    const orderReturn: ReturnRow | undefined = data[0]
    const fulfillment = orderReturn?.fulfillments?.find(
      (f): f is NonNullable<typeof f> => !!f && f.provider_id === LASTMILE_PROVIDER_ID && !f.canceled_at
    )
    if (!orderReturn || !fulfillment) {
      return skip({ status: "not_lastmile" })
    }
    const task = await findOrCreateTask(tasks, {
      kind: "return",
      order_id: orderReturn.order_id,
      return_id: orderReturn.id,
      fulfillment_id: fulfillment.id,
      merchant_order_id: orderReturn.id,
    })
    if (task.status === "booked") {
      return skip({ status: "already_booked" })
    }
    if (task.status === "needs_attention") {
      return skip({ status: "needs_attention", reason: task.last_error ?? "waiting for the merchant" })
    }
    const attempts = await startAttempt(tasks, task)
    return new StepResponse<ReturnBookingPlan, Attempt>(
      { action: "book", task_row_id: task.id, attempts, return_id: orderReturn.id, fulfillment_id: fulfillment.id },
      { task_row_id: task.id, attempts }
    )
  },
  // An attempt that did not complete: retried after the backoff, unless the runner records why it needs the merchant.
  async (attempt, { container }) => undoAttempt(container.resolve<LastmileModuleService>(LASTMILE_MODULE), attempt)
)
