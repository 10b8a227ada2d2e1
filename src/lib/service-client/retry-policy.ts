/**
 * The retry policy as small pure functions, so that each decision can be
 * unit-tested without a clock or a network.
 */
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
  if (attempt >= policy.maxAttempts) {
    return false
  }
  return error instanceof LastmileError && error.transient
}

/**
 * Whether a write that the service does not de-duplicate may be repeated:
 * only when the error proves the service never processed the request.
 */
export function shouldRetryUnsafeWrite(error: unknown, attempt: number, policy: RetryPolicy): boolean {
  if (attempt >= policy.maxAttempts) {
    return false
  }
  return error instanceof LastmileError && error.transient && error.notProcessed
}

/**
 * Delay before attempt `attempt + 1`: exponential with "equal jitter" (half
 * fixed, half random) so concurrent clients spread out, and a Retry-After
 * from the service wins when it is longer.
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

/**
 * Parses a Retry-After header: whole seconds or an HTTP date. Returns
 * milliseconds from `now`, or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value
  if (!raw) {
    return undefined
  }
  const trimmed = raw.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    return Math.round(Number(trimmed) * 1000)
  }
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) {
    return undefined
  }
  return Math.max(0, date - now)
}

/**
 * Whether there is time left in a budget for one more wait and attempt.
 * `minAttemptMs` is the least an attempt needs to be worth starting.
 */
export function fitsInBudget(deadline: number, waitMs: number, now: number, minAttemptMs = 50): boolean {
  return now + waitMs + minAttemptMs <= deadline
}
