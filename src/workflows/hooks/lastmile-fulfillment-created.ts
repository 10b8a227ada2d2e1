/**
 * Books every lastmile fulfillment Medusa creates, whoever creates it, inside the workflow that creates it (decisions
 * 19, 39 and 56), and hands the outcome back to the plugin's own run. The one place a refusal becomes an error.
 */
import { logger } from "@medusajs/framework/logger"
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse } from "@medusajs/framework/workflows-sdk"
import { createOrderFulfillmentWorkflow } from "@medusajs/medusa/core-flows"
import { bookTask } from "../book-task/run"
import { clearFulfillmentBooking } from "../book-task/steps/record-booking-outcome"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import { readBookingAdditionalData } from "../../lib/contracts/plugin-data"
import { BOOKING_ERROR_CODES } from "../../lib/booking/booking-outcome"
import { claimHook } from "../../lib/support/claim-hook"

type Booked = { task_row_id: string; fulfillment_id: string } | null

claimHook(
  {
    workflow: "createOrderFulfillmentWorkflow",
    hook: "fulfillmentCreated",
    without: "no lastmile fulfillment is booked with the service; remove your handler of this hook",
  },
  () =>
    createOrderFulfillmentWorkflow.hooks.fulfillmentCreated(
      async ({ fulfillment, additional_data }, { container }) => {
        const run = readBookingAdditionalData(additional_data?.lastmile)
        const outcome = await bookTask(
          container,
          { kind: "fulfillment", fulfillment_id: fulfillment.id },
          { lock_owner: run.lock_owner, lock_held: !!run.lock_owner, attempt: run.attempt }
        )
        if (run.lock_owner) {
          // The plugin's own run created this fulfillment: it learns the outcome from here, as data.
          TaskRowsService.of(container).handOutcome(run.lock_owner, outcome)
        }
        switch (outcome.status) {
          case "booked":
            return new StepResponse<void, Booked>(undefined, {
              task_row_id: outcome.task_row_id,
              fulfillment_id: fulfillment.id,
            })
          case "not_lastmile":
          case "already_booked":
            return new StepResponse<void, Booked>(undefined, null)
          // Medusa undoes the fulfillment, and the merchant reads a 400 with the reason.
          case "refused":
            throw new MedusaError(MedusaError.Types.NOT_ALLOWED, outcome.reason, outcome.code)
          case "needs_attention":
            throw new MedusaError(MedusaError.Types.NOT_ALLOWED, outcome.reason, BOOKING_ERROR_CODES.needsAttention)
          case "failed":
            throw new MedusaError(
              MedusaError.Types.NOT_ALLOWED,
              `${outcome.reason}. Nothing was booked; the lastmile booking job tries again${outcome.next_attempt_at ? ` from ${outcome.next_attempt_at}` : ""}, or use Retry in the order's Lastmile panel.`,
              BOOKING_ERROR_CODES.failed
            )
          default:
            throw new MedusaError(
              MedusaError.Types.NOT_ALLOWED,
              outcome.status === "busy"
                ? "This delivery is being booked with the lastmile service by another run right now; try again in a moment."
                : `This fulfillment was not booked (${outcome.status}).`
            )
        }
      },
      // Medusa undoes a booked fulfillment: the booking comes off it (so Medusa can cancel it), and the row adopts the
      // booked task at the next attempt.
      async (booked, { container }) => {
        if (booked) {
          await clearFulfillmentBooking(container, booked.fulfillment_id)
          await TaskRowsService.of(container).recordBookingUndone(booked)
        }
      }
    ),
  logger
)
