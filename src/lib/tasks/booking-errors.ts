/** Booking failures at Medusa's boundary: MedusaErrors with the plugin's booking codes. */
import { MedusaError } from "@medusajs/framework/utils"
import { BOOKING_ERROR_CODES } from "../lastmile/booking-codes"

/** Medusa created the fulfillment, but it holds no lastmile booking. */
export class BookingNotRecordedError extends MedusaError {
  constructor() {
    super(
      MedusaError.Types.UNEXPECTED_STATE,
      "Lastmile booking failed: the fulfillment was created without a lastmile task",
      BOOKING_ERROR_CODES.failed
    )
  }
}

/** A return that needs the merchant: nothing (or possibly something) was booked and repeating could book twice. */
export class ReturnNeedsAttentionError extends MedusaError {
  constructor(reason: string) {
    super(MedusaError.Types.NOT_ALLOWED, reason, BOOKING_ERROR_CODES.needsAttention)
  }
}
