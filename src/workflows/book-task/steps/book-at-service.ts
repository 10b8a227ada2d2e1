/**
 * The booking core as a step (lib/booking/book-at-service.ts, decisions 12 and 39): its answer is data, which the
 * next step records under the same lock.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import { storeTimeZoneOf } from "../../../lib/options/plugin-options"
import { type BookingSubject, bookAtService } from "../../../lib/booking/book-at-service"
import { type ServiceBookingOutcome, refusal } from "../../../lib/booking/booking-outcome"
import type { Attempt } from "../../../lib/booking/booking-plan"

export const bookAtServiceStepId = "lastmile-book-at-service"

export const bookAtServiceStep = createStep(
  bookAtServiceStepId,
  async ({ subject, task_row_id, attempts }: Attempt & { subject: BookingSubject }, { container }) => {
    const connection = ServiceConnectionService.of(container).get()
    const outcome: ServiceBookingOutcome = connection
      ? await bookAtService(connection.client, subject, {
          ...connection.options,
          storeTimeZone: storeTimeZoneOf(PluginSettingsService.of(container).options),
        })
      : refusal("the lastmile provider is not configured in medusa-config.")
    const posted = outcome.status === "booked" || (outcome.status === "unknown" && outcome.posted)
    return new StepResponse<ServiceBookingOutcome, Attempt | null>(outcome, posted ? { task_row_id, attempts } : null)
  },
  // The service cannot cancel a task: the compensation only makes sure it is never posted again blindly.
  async (posted, { container }) => {
    if (posted) {
      // The task may exist at the service now: a return waits for the merchant, a delivery's next attempt adopts it.
      await TaskRowsService.of(container).settleInterruptedAttempt(posted, {
        posted: true,
        cause: "The booking reached the service, but the run did not complete.",
      })
    }
  }
)
