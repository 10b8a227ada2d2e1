/**
 * Which task a booking run is for, read before its lock is taken (decision 39): its reference at the service
 * (decision 2), so the lock's key.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { BookingSkip } from "../../../lib/booking/booking-outcome"
import { type BookingRead, type BookingTarget, referenceOf } from "../../../lib/booking/booking-read"
import { readFulfillmentBooking } from "../../../lib/booking/medusa/read-booking"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"

type Identity =
  | { action: "skip"; outcome: BookingSkip }
  | { action: "refuse"; reason: string }
  | { action: "go"; kind: "order" | "return"; reference: string }
  | { action: "go"; kind: "fulfillment"; reference: string; delivery: BookingRead }

export type TaskIdentity = Identity & { lock_owner: string }

export const identifyTaskStepId = "lastmile-identify-task"

export const identifyTaskStep = createStep(
  identifyTaskStepId,
  async ({ target, lock_owner }: { target: BookingTarget; lock_owner?: string }, { container }) => {
    const identity = await identify(container, target)
    // The lock's owner is settled in a step: a step's result is kept with the run, a transform's is not.
    return new StepResponse<TaskIdentity>({ ...identity, lock_owner: lock_owner ?? `lastmile-book:${randomUUID()}` })
  }
)

/** Which task the target is, without the lock's owner (the runner reads it again after a failed run). */
export async function identify(container: MedusaContainer, target: BookingTarget): Promise<Identity> {
  if (target.kind !== "fulfillment") {
    return { action: "go", kind: target.kind, reference: referenceOf(target) }
  }
  // A fulfillment is read first: which delivery it is depends on its items.
  const delivery = await readFulfillmentBooking(container, target.fulfillment_id, {
    deliveryTypes: ServiceConnectionService.of(container).get()?.options.deliveryTypes ?? null,
    rows: TaskRowsService.of(container),
  })
  if (delivery.action === "book") {
    return { action: "go", kind: "fulfillment", reference: delivery.subject.merchantOrderId, delivery }
  }
  return delivery.action === "skip" ? { action: "skip", outcome: { status: "not_lastmile" } } : delivery
}
