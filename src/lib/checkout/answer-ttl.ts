import type { LastmileRatesResponse } from "./option-rate"

/** How long an answer priced without a quote (fallback, outage, incomplete details) is kept: the provider's failure cache. */
export const UNQUOTED_TTL_MS = 5_000

/**
 * How long an answer may be served again: until its oldest quote expires,
 * never longer than a quote lives, and only a few seconds when an option
 * was priced without a quote (an outage's fallback, a kept price, details
 * to complete), so a recovered service is seen soon.
 */
export function answerTtlMs(answer: LastmileRatesResponse, quoteTtlMs: number, now: number): number {
  let expires = now + quoteTtlMs
  for (const rate of answer.rates) {
    const quotedAt = rate.quoted_at ? Date.parse(rate.quoted_at) : NaN
    const until = Number.isFinite(quotedAt) ? quotedAt + quoteTtlMs : now + Math.min(UNQUOTED_TTL_MS, quoteTtlMs)
    expires = Math.min(expires, until)
  }
  if (!answer.rates.length) {
    expires = Math.min(expires, now + Math.min(UNQUOTED_TTL_MS, quoteTtlMs))
  }
  return Math.max(0, expires - now)
}
