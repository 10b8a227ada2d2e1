/**
 * The codes a failed booking carries across Medusa's workflow engine (which
 * keeps an error's `code`, not its class): the provider and the booking steps
 * throw MedusaErrors with them, the booking runner decides by them.
 */
export const BOOKING_ERROR_CODES = {
  /** Nothing was booked and retrying will not help: the merchant decides (rate gone, price rose, refused). */
  needsAttention: "lastmile_needs_attention",
  /** The order already has a delivery at the service. */
  alreadyBooked: "lastmile_already_booked",
  /** The attempt failed and may succeed later: retried with backoff. */
  failed: "lastmile_booking_failed",
} as const

export type BookingErrorCode = (typeof BOOKING_ERROR_CODES)[keyof typeof BOOKING_ERROR_CODES]

/** Whether a failed booking's code says it waits for the merchant rather than a retry. */
export function needsMerchant(code: unknown): boolean {
  return code === BOOKING_ERROR_CODES.needsAttention || code === BOOKING_ERROR_CODES.alreadyBooked
}

/** Why a booking run booked nothing: the delivery or return is booked already, waits for the merchant, or is not the plugin's to book. */
export type BookingSkip =
  | { status: "already_booked" }
  | { status: "needs_attention"; reason: string }
  | { status: "not_lastmile" }
  | { status: "cancelled" }
  /** Nothing left to fulfil (the merchant shipped the items another way). */
  | { status: "nothing_to_book" }
