/**
 * Under the task's lock, what the booking reads of Medusa for its kind of task (decisions 39 and 57): an order's
 * delivery (and a fulfillment of it that waits for its booking), or a return. Nothing is written here.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { BookingReads, BookingTarget } from "../../../lib/booking/booking-read"
import { isPendingBooking } from "../../../lib/contracts/plugin-data"
import { readFulfillmentBooking, readOrderDelivery, readReturnBooking } from "../../../lib/booking/medusa/read-booking"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import type { TaskIdentity } from "./identify-task"

export const readBookingStepId = "lastmile-read-booking"

export const readBookingStep = createStep(
  readBookingStepId,
  async ({ target, identity }: { target: BookingTarget; identity: TaskIdentity }, { container }) =>
    new StepResponse<BookingReads>(await readBooking(container, target, identity))
)

async function readBooking(container: MedusaContainer, target: BookingTarget, identity: TaskIdentity) {
  if (identity.action !== "go") {
    return identity.action === "skip"
      ? ({ kind: "skip", outcome: identity.outcome } as const)
      : ({ kind: "refuse", reason: identity.reason } as const)
  }
  // A fulfillment Medusa created was read before the lock (identify-task.ts).
  if (identity.kind === "fulfillment") {
    return { kind: "fulfillment", read: identity.delivery } as const
  }
  const deliveryTypes = ServiceConnectionService.of(container).get()?.options.deliveryTypes ?? null
  if (target.kind !== "order") {
    return { kind: "return", read: await readReturnBooking(container, identity.reference, deliveryTypes) } as const
  }
  const read = await readOrderDelivery(container, target)
  // A fulfillment of these items Medusa created and nobody booked (a process stopped inside its workflow).
  const pending = "skip" in read ? undefined : read.live.find((f) => isPendingBooking(f.data))
  if (pending && !("skip" in read)) {
    const rows = TaskRowsService.of(container)
    read.pending = {
      id: pending.id,
      identity: await readFulfillmentBooking(container, pending.id, { deliveryTypes, rows }),
    }
  }
  return { kind: "order", read } as const
}
