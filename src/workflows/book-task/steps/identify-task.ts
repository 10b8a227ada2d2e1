/**
 * Which task a booking run is for, read before its lock is taken: the
 * reference the service knows it by (decision 2), and so the lock's key. An
 * order's delivery and a return are named by their ids; a fulfillment Medusa
 * created is read first, since which delivery of the order it is depends on
 * its items (and a fulfillment that is not the plugin's to book is skipped,
 * or refused with the reason, before any row is written).
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { BookingSkip } from "../../../lib/booking/booking-outcome"
import { type BookingTarget, type FulfillmentIdentity, readFulfillmentBooking } from "../read-booking"

export type TaskIdentity =
  | { action: "skip"; outcome: BookingSkip }
  | { action: "refuse"; reason: string }
  | { action: "go"; reference: string; delivery?: Extract<FulfillmentIdentity, { action: "book" }> }

export const identifyTaskStepId = "lastmile-identify-task"

export const identifyTaskStep = createStep(identifyTaskStepId, async (target: BookingTarget, { container }) => {
  if (target.kind === "order") {
    return new StepResponse<TaskIdentity>({ action: "go", reference: target.reference_id ?? target.order_id })
  }
  if (target.kind === "return") {
    return new StepResponse<TaskIdentity>({ action: "go", reference: target.return_id })
  }
  const delivery = await readFulfillmentBooking(container, target.fulfillment_id)
  if (delivery.action === "skip") {
    return new StepResponse<TaskIdentity>({ action: "skip", outcome: { status: "not_lastmile" } })
  }
  if (delivery.action === "refuse") {
    return new StepResponse<TaskIdentity>(delivery)
  }
  return new StepResponse<TaskIdentity>({ action: "go", reference: delivery.reference, delivery })
})
