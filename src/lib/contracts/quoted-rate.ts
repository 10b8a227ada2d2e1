/**
 * The rate a task was booked at, kept on its row (`quoted_rate`) from the booking's own quote: the promise the
 * messages repeat and insights measure against (decision 52).
 */
// A type, not an interface: the task row's JSON column takes it as a plain record.
export type QuotedRate = {
  rate_code: string
  /** The rate's display name (the store's, for a collection). */
  name: string | null
  /** What the service quoted, in major units of `currency_code`. */
  amount: number | null
  currency_code: string | null
  /** The delivery (or readiness) window offered, ISO 8601 UTC. */
  window: { from: string; to: string } | null
  /** The service's `co2Savings` figure for the rate, as given (unit: see README, Insights). */
  co2_savings: number | null
  /** When the quote behind it was made (ISO 8601). */
  quoted_at: string
  /** What became of the shopper's note to the courier at this booking; absent when none was sent (decision 63). */
  delivery_note?: "sent" | "refused"
}
