/**
 * What the booking inside the fulfillment this run created came to, as that booking handed it back (the
 * `fulfillmentCreated` hook, by this run's lock owner): the run that booked says, so the row is not read again.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { BookingOutcome } from "../../../lib/booking/booking-outcome"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"

export const takeHookOutcomeStepId = "lastmile-take-hook-outcome"

export const takeHookOutcomeStep = createStep(
  takeHookOutcomeStepId,
  async ({ lock_owner }: { lock_owner: string }, { container }) => {
    const outcome = TaskRowsService.of(container).takeHandedOutcome(lock_owner)
    // The hook hands an outcome whenever it books; none means it never ran for this run's fulfillment.
    return new StepResponse<BookingOutcome>(
      outcome ?? { status: "busy", reason: "the fulfillment was created without its booking; the booking job books it" }
    )
  }
)
