/**
 * The booking core as a step, for deliveries and returns alike: quote,
 * choose the rate, book (src/lib/booking/book-at-service.ts). The service has
 * no cancel operation, so there is no compensation: a booked task stays
 * booked, and the steps after it only record it. A failure is a MedusaError
 * carrying the plugin's booking code (the one mapper decides it), which
 * crosses the workflow engine where error classes do not.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { type BookedAtService, type BookingSubject, bookAtService } from "../../lib/booking/book-at-service"
import { bookingFailureOf } from "../../lib/booking/booking-failure"
import { BOOKING_ERROR_CODES } from "../../lib/booking/booking-codes"

export const bookAtServiceStepId = "lastmile-book-at-service"

export const bookAtServiceStep = createStep(bookAtServiceStepId, async (subject: BookingSubject, { container }) => {
  const connection = container.resolve<LastmileModuleService>(LASTMILE_MODULE).connection()
  if (!connection) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "Lastmile booking needs attention: the lastmile provider is not configured in medusa-config.",
      BOOKING_ERROR_CODES.needsAttention
    )
  }
  try {
    const booked = await bookAtService(connection.client, subject, {
      productIdSource: connection.options.productIdSource,
      priceTolerancePercent: connection.options.priceTolerancePercent,
      rateRule: connection.options.deliveryRateRule,
    })
    return new StepResponse<BookedAtService>(booked)
  } catch (error) {
    const failure = bookingFailureOf(error, subject.direction)
    // Never a 500: whatever the service did, the merchant gets the reason.
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, failure.message, failure.code)
  }
})
