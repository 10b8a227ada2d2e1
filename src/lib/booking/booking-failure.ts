/**
 * How a failed booking is settled, decided once for every road: the
 * merchant decides (`needs_attention`), the retry job tries again later
 * (`failed`), or the delivery already exists. A delivery whose outcome is
 * unknown is retried, because the next attempt looks it up first and the
 * service de-duplicates deliveries; a return is not (the spec does not say
 * returns are de-duplicated), so only a return refused before processing is
 * retried. Messages are the service client's, already redacted.
 */
import { BOOKING_ERROR_CODES, type BookingErrorCode } from "./booking-codes"
import { errorMessage } from "../support/error-message"
import { LastmileBookingOutcomeUnknownError, LastmileError } from "../service-client"

/** Nothing was booked, and retrying will not help: the merchant decides (rate gone, price rose, details missing). */
export class BookingNeedsAttentionError extends Error {
  readonly code = BOOKING_ERROR_CODES.needsAttention
  constructor(readonly reason: string) {
    super(`Lastmile booking needs attention: ${reason}`)
  }
}

/** Why a delivery waits for the merchant when every item it carried was fulfilled another way. */
export const NOTHING_TO_BOOK =
  "Nothing is left to book: every item of this delivery was fulfilled without lastmile (by another shipping option). If an earlier attempt reached the service, cancel that task in the service's app."

/** The delivery already has a task: a second one is refused. */
export class AlreadyBookedError extends Error {
  readonly code = BOOKING_ERROR_CODES.alreadyBooked
  constructor(
    readonly label: string,
    readonly taskId: string,
    readonly trackingId: string | null
  ) {
    super(
      `${label} already has a lastmile delivery (task ${taskId}${trackingId ? `, tracking ${trackingId}` : ""}). The service books one delivery per reference, so a second lastmile fulfillment of it is refused.`
    )
  }
}

export interface BookingFailure {
  code: BookingErrorCode
  message: string
}

/** The settlement of any error a booking attempt threw. */
export function bookingFailureOf(error: unknown, direction: "delivery" | "return"): BookingFailure {
  if (error instanceof BookingNeedsAttentionError || error instanceof AlreadyBookedError) {
    return { code: error.code, message: error.message }
  }
  // Errors that crossed the workflow engine keep their own code, not their class.
  const carried = (error as { code?: unknown } | null)?.code
  if (isBookingErrorCode(carried)) {
    return { code: carried, message: errorMessage(error) }
  }
  if (error instanceof LastmileError) {
    const message = `Lastmile booking failed: ${error.message}`
    if (direction === "return") {
      // Never post a return twice blindly: only an attempt that certainly posted nothing is retried.
      const retry = error.transient && !(error instanceof LastmileBookingOutcomeUnknownError)
      return { code: retry ? BOOKING_ERROR_CODES.failed : BOOKING_ERROR_CODES.needsAttention, message }
    }
    // A 4xx (not a rate limit) will be refused again: the merchant decides.
    const refused = error.notProcessed && !error.transient
    return { code: refused ? BOOKING_ERROR_CODES.needsAttention : BOOKING_ERROR_CODES.failed, message }
  }
  return { code: BOOKING_ERROR_CODES.failed, message: `Lastmile booking failed: ${errorMessage(error)}` }
}

function isBookingErrorCode(value: unknown): value is BookingErrorCode {
  return Object.values(BOOKING_ERROR_CODES).includes(value as BookingErrorCode)
}
