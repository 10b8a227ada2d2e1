/**
 * Books a lastmile fulfillment Medusa just created (the `fulfillmentCreated`
 * hook calls this inside `createOrderFulfillmentWorkflow`): identifies the
 * delivery, runs `bookDeliveryWorkflow`, and on a failure records why on the
 * task row, then throws the reason as a MedusaError, so Medusa undoes the
 * fulfillment and the merchant reads a 400 they can act on, never a 500.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { type BookDeliveryWorkflowOutput, bookDeliveryWorkflow, deliveryLockKey } from "./index"
import { identifyDelivery } from "./identify-delivery"
import { settleBookingFailure } from "../record-booking-failure/run"
import type { BookingAdditionalData } from "../../lib/contracts/plugin-data"
import { BOOKING_ERROR_CODES } from "../../lib/booking/booking-codes"
import { errorMessage } from "../../lib/support/error-message"

export type FulfillmentBooking = BookDeliveryWorkflowOutput | { status: "not_lastmile"; reason: string }

export async function bookFulfillment(
  container: MedusaContainer,
  fulfillmentId: string,
  additional: BookingAdditionalData = {}
): Promise<FulfillmentBooking> {
  const identity = await identifyDelivery(container, fulfillmentId)
  if (identity.action === "skip") {
    return { status: "not_lastmile", reason: identity.reason }
  }
  const { result, errors } = await bookDeliveryWorkflow(container).run({
    input: {
      plan: identity,
      first_attempt: additional.first_attempt,
      lock_owner: additional.lock_owner,
      attempt: additional.attempt,
    },
    throwOnError: false,
  })
  const failure = errors?.[0]
  if (!failure) {
    return result
  }
  const name = identity.unit.merchantOrderName
  if (failure.action === acquireLockStepId) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `${name} is being booked with the lastmile service by another run right now; try again in a moment.`
    )
  }
  const code = (failure.error as { code?: unknown } | null)?.code
  if (code === BOOKING_ERROR_CODES.alreadyBooked) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, errorMessage(failure.error), BOOKING_ERROR_CODES.alreadyBooked)
  }
  const settled = await settleBookingFailure(container, {
    merchant_order_id: identity.unit.merchantOrderId,
    lock_key: deliveryLockKey(identity.unit.merchantOrderId),
    lock_owner: additional.lock_owner,
    error: failure.error,
    // The job cannot fulfil again items the merchant picked by hand: those wait for them.
    retryable: identity.unit.origin !== "part",
  })
  throw new MedusaError(
    MedusaError.Types.NOT_ALLOWED,
    settled.status === "failed"
      ? `${settled.reason}. Nothing was booked for ${name}; the lastmile booking job tries again from ${settled.nextAttemptAt.toISOString()}, or use Retry in the order's Lastmile panel.`
      : settled.reason,
    settled.status === "failed" ? BOOKING_ERROR_CODES.failed : BOOKING_ERROR_CODES.needsAttention
  )
}
