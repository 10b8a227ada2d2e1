/** The retry policy as small pure functions, each decision testable without a clock or a network. */
import { LastmileError, LastmileRateLimitError } from "./errors"

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number
  /** First backoff, doubled on each further attempt. */
  baseDelayMs: number
  /** Longest single wait, whatever Retry-After says. */
  maxDelayMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 100,
  maxDelayMs: 2000,
}

/** Whether a read (quote, lookup, list) should be tried again after `error`. */
export function shouldRetryRead(error: unknown, attempt: number, policy: RetryPolicy): boolean {
  return attempt < policy.maxAttempts && error instanceof LastmileError && error.transient
}

/** Whether a write the service does not de-duplicate may be repeated: only when it certainly was not processed. */
export function shouldRetryUnsafeWrite(error: unknown, attempt: number, policy: RetryPolicy): boolean {
  return shouldRetryRead(error, attempt, policy) && (error as LastmileError).notProcessed
}

/**
 * Delay before attempt `attempt + 1`: exponential with "equal jitter" (half
 * fixed, half random) so concurrent clients spread out; a longer Retry-After
 * from the service wins.
 */
export function backoffMs(
  attempt: number,
  policy: RetryPolicy,
  error?: unknown,
  random: () => number = Math.random
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1))
  const jittered = exponential / 2 + (random() * exponential) / 2
  const hinted = error instanceof LastmileRateLimitError ? error.retryAfterMs : undefined
  const delay = hinted !== undefined ? Math.max(jittered, hinted) : jittered
  return Math.round(Math.min(delay, policy.maxDelayMs))
}

/** A Retry-After header (whole seconds or an HTTP date) in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim()
  if (!raw) {
    return undefined
  }
  if (/^\d+(\.\d+)?$/.test(raw)) {
    return Math.round(Number(raw) * 1000)
  }
  const date = Date.parse(raw)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Whether a budget has time left for one more wait and an attempt of at least `minAttemptMs`. */
export function fitsInBudget(deadline: number, waitMs: number, now: number, minAttemptMs = 50): boolean {
  return now + waitMs + minAttemptMs <= deadline
}
