/** The outcome of pricing one option for a cart: a rate and its price, or why the option cannot be offered. */
import type { QuoteInputProblem } from "./quote-request"
import type { DeliveryRateChoice } from "./rate-selection"

export type PricingOutcome =
  | DeliveryRateChoice
  | { ok: false; reason: "input_incomplete"; detail: string; problems: QuoteInputProblem[] }
  /** A timeout, a connection error, a 5xx or a 429: an outage, for which the fallback amount exists. */
  | { ok: false; reason: "service_unavailable"; detail: string; error: unknown }
  /** A 4xx or an unreadable answer: the service refused, so nothing is offered in its place. */
  | { ok: false; reason: "service_refused"; detail: string; error: unknown }
  | { ok: false; reason: "store_not_mapped"; detail: string }
  /** The storefront's `data.rate_code` is not a rate code at all. */
  | { ok: false; reason: "rate_code_invalid"; detail: string }

export type PricingResult = PricingOutcome & {
  /** The quote's eligibility, when a quote was read. */
  eligibility?: string
  /** The store's external id, for a collection option. */
  merchantLocationId?: string
  /** When the quote that priced this was made (ms since epoch). */
  quotedAt?: number
}
