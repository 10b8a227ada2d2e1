/**
 * What a booking attempt came to, and how each outcome is settled (ARCHITECTURE.md, decision 39). An unknown delivery
 * is retried (the service de-duplicates deliveries); an unknown return only when it certainly did not post.
 */
import type { ServiceRate, ServiceTask } from "../contracts/service-shapes"
import { LastmileBookingOutcomeUnknownError, LastmileError } from "../service-client"
import { errorMessage } from "../support/error-message"
import { minorToMajor } from "../money/money"
import type { QuotedRate } from "../contracts/quoted-rate"

/** The rate booked, from the booking's own quote. */
export type BookedRate = Pick<ServiceRate, "rateCode" | "name" | "window" | "description" | "co2Savings"> & {
  /** The quoted price in minor units, in the currency the booking was priced in. */
  price?: { amount: number; currency: string }
  /** When the quote behind it was made (ISO 8601). */
  quotedAt?: string
}

/** What became of the shopper's note to the courier at booking: sent as `order.note`, or refused (the HTTP status). */
export type DeliveryNoteOutcome = { sent: true } | { sent: false; status: number | null }

export type ServiceBookingOutcome =
  | {
      status: "booked"
      task: ServiceTask
      /** Found by the lookup (or on the fulfillment) rather than booked by this attempt. */
      adopted: boolean
      /** The rate booked (null when an existing task was adopted and names none). */
      rate: BookedRate | null
      /** Set when the booking carried the note, or tried to (`send_delivery_note`; decision 63). */
      deliveryNote?: DeliveryNoteOutcome
    }
  | { status: "refused"; reason: string }
  /** `posted`: the request may have reached the service, so a task may exist there. */
  | { status: "unknown"; reason: string; posted: boolean }

/** The codes a refusal carries across Medusa's workflow engine (it keeps an error's `code`, not its class), for host apps. */
export const BOOKING_ERROR_CODES = {
  /** Nothing was booked and retrying will not help: the merchant decides (rate gone, price rose, refused). */
  needsAttention: "lastmile_needs_attention",
  /** The delivery already has a task at the service. */
  alreadyBooked: "lastmile_already_booked",
  /** The attempt failed and may succeed later: retried with backoff. */
  failed: "lastmile_booking_failed",
} as const

export type BookingErrorCode = (typeof BOOKING_ERROR_CODES)[keyof typeof BOOKING_ERROR_CODES]

/**
 * What a booking run came to: the one shape from the run that booked to the row, the runner, the `fulfillmentCreated`
 * hook, the admin routes and a host app running `bookTaskWorkflow` (exported as `BookTaskWorkflowOutput`). The
 * service's answer it settles is `ServiceBookingOutcome`.
 */
export type BookingOutcome =
  | { status: "booked"; task_row_id: string; task_id: string; adopted: boolean }
  /** Nothing was booked and the merchant decides (after an attempt, or found waiting). */
  | { status: "needs_attention"; reason: string }
  /** The attempt failed and the booking job tries again from `next_attempt_at` (ISO 8601; absent when unknown). */
  | { status: "failed"; reason: string; next_attempt_at?: string }
  /** Refused before any attempt: a second fulfillment of a booked delivery, a cancelled order's. */
  | { status: "refused"; code: BookingErrorCode; reason: string }
  /** Another run holds the task's lock: it books. */
  | { status: "busy"; reason: string }
  | { status: "already_booked" }
  | { status: "not_lastmile" }
  | { status: "cancelled" }
  /** Nothing left to fulfil (the merchant shipped the items another way). */
  | { status: "nothing_to_book" }

/** Why a booking run booked nothing, without an attempt: booked already, waiting for the merchant, not the plugin's. */
export type BookingSkip = Extract<
  BookingOutcome,
  { status: "already_booked" | "needs_attention" | "not_lastmile" | "cancelled" | "nothing_to_book" }
>

/** Why a delivery waits for the merchant when every item it carried was fulfilled another way. */
export const NOTHING_TO_BOOK =
  "Nothing is left to book: every item of this delivery was fulfilled without lastmile (by another shipping option). If an earlier attempt reached the service, cancel that task in the service's app."

/** Why an attempt that did not complete is retried: the last error a merchant sees until then. */
export const ATTEMPT_INTERRUPTED = "The booking attempt did not complete."

/** A refusal of the plugin's own, before anything reached the service. */
export function refusal(reason: string): Extract<ServiceBookingOutcome, { status: "refused" }> {
  return { status: "refused", reason: `Lastmile booking needs attention: ${reason}` }
}

/** The outcome of an error a booking attempt ran into at the service (or before reaching it). */
export function outcomeOfError(error: unknown): Exclude<ServiceBookingOutcome, { status: "booked" }> {
  if (error instanceof LastmileError) {
    const reason = `Lastmile booking failed: ${error.message}`
    // A 4xx (not a rate limit) will be refused again: the merchant decides.
    if (error.notProcessed && !error.transient) {
      return { status: "refused", reason }
    }
    return { status: "unknown", reason, posted: error instanceof LastmileBookingOutcomeUnknownError }
  }
  return { status: "unknown", reason: `Lastmile booking failed: ${errorMessage(error)}`, posted: true }
}

/** How a row settles an outcome that booked nothing; what the job cannot redo (`retryable` false) waits too. */
export function settlementOf(
  outcome: Exclude<ServiceBookingOutcome, { status: "booked" }>,
  task: { direction: "delivery" | "return"; retryable: boolean }
): { status: "needs_attention" | "failed"; reason: string } {
  if (outcome.status === "refused" || !task.retryable) {
    return { status: "needs_attention", reason: outcome.reason }
  }
  // Never post a return twice blindly: one that may have reached the service waits for the merchant.
  if (task.direction === "return" && outcome.posted) {
    return {
      status: "needs_attention",
      reason: `${outcome.reason}. The return may have reached the service: check the service's app, then retry.`,
    }
  }
  return { status: "failed", reason: outcome.reason }
}

/** The row's `quoted_rate`: the booked rate, or for an adopted task (the lookup gives none) what was shown. */
export function quotedRateOf(
  rate: BookedRate | null,
  shown: { rateName?: string | null; window?: { from: string; to: string } | null },
  bookedAt: Date,
  deliveryNote?: DeliveryNoteOutcome
): QuotedRate | null {
  const window = rate?.window ? { from: rate.window.from, to: rate.window.to } : (shown.window ?? null)
  if (!rate?.rateCode && !window) {
    return null
  }
  return {
    ...(deliveryNote ? { delivery_note: deliveryNote.sent ? ("sent" as const) : ("refused" as const) } : {}),
    rate_code: rate?.rateCode ?? "",
    name: rate?.name ?? shown.rateName ?? null,
    amount: rate?.price ? minorToMajor(rate.price.amount, rate.price.currency) : null,
    currency_code: rate?.price?.currency.toLowerCase() ?? null,
    window,
    co2_savings: typeof rate?.co2Savings === "number" && Number.isFinite(rate.co2Savings) ? rate.co2Savings : null,
    quoted_at: rate?.quotedAt ?? bookedAt.toISOString(),
  }
}

/**
 * What the task's history says of a note the service refused (its status only: a body may repeat the note), for the
 * merchant, who has it in the order's Lastmile panel to pass on.
 */
export function deliveryNoteRefusedDetail(outcome: DeliveryNoteOutcome | undefined): string | undefined {
  if (!outcome || outcome.sent) {
    return undefined
  }
  const status = outcome.status === null ? "" : ` (${outcome.status})`
  return `The service refused the shopper's note to the courier${status}, so the delivery was booked without it: pass the note on to the courier, or set send_delivery_note to false.`
}

/** What a task row says a booking came to (after a run that failed: how its compensation settled it). */
export function outcomeOfRow(row: {
  id: string
  status: string
  task_id: string | null
  adopted: boolean
  last_error: string | null
  next_attempt_at: Date | string | null
}): BookingOutcome {
  if (row.status === "booked" && row.task_id) {
    return { status: "booked", task_row_id: row.id, task_id: row.task_id, adopted: row.adopted }
  }
  if (row.status === "needs_attention") {
    return { status: "needs_attention", reason: row.last_error ?? "waiting for the merchant" }
  }
  if (row.status === "failed" && row.next_attempt_at) {
    const next = new Date(row.next_attempt_at).toISOString()
    return { status: "failed", reason: row.last_error ?? "the booking failed", next_attempt_at: next }
  }
  return { status: "busy", reason: row.last_error ?? "the booking is not recorded yet: the next run records it" }
}
