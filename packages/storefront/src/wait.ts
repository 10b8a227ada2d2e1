/**
 * Waiting for an order's booking on a confirmation page: the tracking read again with a growing pause until it settles,
 * stopped by an AbortSignal and paused while the page is hidden.
 */
import { LastmileStorefrontError } from "./errors.js"
import { pendingStateOf } from "./tracking-text.js"
import type { LastmileOrderTracking } from "./tracking.js"

export interface LastmileWaitOptions {
  /** Stops the wait; the promise then resolves with `outcome: "aborted"`. */
  signal?: AbortSignal
  /** Called with each tracking read that differs from the one before (the first read included). */
  onUpdate?: (tracking: LastmileOrderTracking | null) => void
  /** Called with each transient failure, which is waited out (a page may say it is trying again). */
  onError?: (error: unknown) => void
  /**
   * - `"booked"` (default): until the booking is settled: booked (or further), cancelled, waiting for the shop,
   *   retrying later, or booked only when the shop sends the order;
   * - `"done"`: until the journey ends: delivered (collected), cancelled, a booking waiting for the shop, or a
   *   collection nobody came for by its collect-by (the shop decides what happens next).
   */
  until?: "booked" | "done"
  /** The first pause, in ms (default 1000); each next one is `backoff` times longer (default 1.5), at most `maxDelayMs`. */
  firstDelayMs?: number
  backoff?: number
  /** Default 15000 for `"booked"`, 60000 for `"done"`. */
  maxDelayMs?: number
  /** Give up after this long (default 10 minutes for `"booked"`, none for `"done"`); the result says `"timeout"`. */
  timeoutMs?: number
}

export interface LastmileWaitResult {
  /** The latest tracking read (null when the order has no lastmile delivery, or nothing was read). */
  tracking: LastmileOrderTracking | null
  /** `settled`: the tracking reached what `until` asks for; `timeout`; `aborted` by the signal. */
  outcome: "settled" | "timeout" | "aborted"
}

/** Whether the tracking has reached what `until` waits for. */
export function isSettled(tracking: LastmileOrderTracking | null, until: "booked" | "done" = "booked"): boolean {
  if (!tracking) {
    // Not a lastmile order: there is nothing to wait for.
    return true
  }
  if (tracking.status === "delivered" || tracking.status === "canceled" || tracking.collection?.expired) {
    return true
  }
  if (tracking.status === "pending") {
    const state = pendingStateOf(tracking)
    // A booking that waits for the shop, or for the shop to send the order, does not move by itself.
    if (state === "needs_attention" || state === "books_on_fulfillment") {
      return true
    }
    return until === "booked" && state === "retrying"
  }
  return until === "booked"
}

/**
 * Reads the tracking with `read` (the client's `retrieveTracking`, or a
 * server action returning it) until it settles. A transient failure (the
 * backend down or out of reach) is waited out like a pending booking; any
 * other failure (a route missing, a refused key) rejects.
 */
export async function waitForTracking(
  read: () => Promise<LastmileOrderTracking | null>,
  options: LastmileWaitOptions = {}
): Promise<LastmileWaitResult> {
  const until = options.until ?? "booked"
  const first = options.firstDelayMs ?? 1000
  const backoff = options.backoff ?? 1.5
  const max = options.maxDelayMs ?? (until === "booked" ? 15_000 : 60_000)
  const timeoutMs = options.timeoutMs ?? (until === "booked" ? 10 * 60_000 : Number.POSITIVE_INFINITY)
  const started = Date.now()
  let latest: LastmileOrderTracking | null = null
  let seen: string | null = null
  let delay = first
  for (;;) {
    if (options.signal?.aborted || !(await visible(options.signal))) {
      return { tracking: latest, outcome: "aborted" }
    }
    try {
      const tracking = await read()
      if (options.signal?.aborted) {
        return { tracking: latest, outcome: "aborted" }
      }
      latest = tracking
      const fingerprint = JSON.stringify(tracking)
      if (fingerprint !== seen) {
        seen = fingerprint
        options.onUpdate?.(tracking)
      }
      if (isSettled(tracking, until)) {
        return { tracking, outcome: "settled" }
      }
    } catch (error) {
      if (!isTransient(error)) {
        throw error
      }
      options.onError?.(error)
      // The next read is told even if unchanged: the page may be showing the failure.
      seen = null
    }
    if (Date.now() - started + delay > timeoutMs) {
      return { tracking: latest, outcome: "timeout" }
    }
    if (!(await pause(delay, options.signal))) {
      return { tracking: latest, outcome: "aborted" }
    }
    delay = Math.min(max, Math.round(delay * backoff))
  }
}

/** A helper's transient failure, or anything that is not the helpers' own error (a server action's network error). */
function isTransient(error: unknown): boolean {
  return !(error instanceof LastmileStorefrontError) || error.transient
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort)
      resolve(true)
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      resolve(false)
    }
    signal?.addEventListener("abort", onAbort, { once: true })
  })
}

/**
 * Resolves true once the page is visible (at once outside a browser, or when
 * it is), false if the signal aborts first: a hidden tab reads nothing.
 */
function visible(signal: AbortSignal | undefined): Promise<boolean> {
  const page = typeof document === "undefined" ? null : document
  if (!page || page.visibilityState !== "hidden") {
    return Promise.resolve(true)
  }
  return new Promise((resolve) => {
    const onChange = () => {
      if (page.visibilityState !== "hidden") {
        done(true)
      }
    }
    const onAbort = () => done(false)
    const done = (value: boolean) => {
      page.removeEventListener("visibilitychange", onChange)
      signal?.removeEventListener("abort", onAbort)
      resolve(value)
    }
    page.addEventListener("visibilitychange", onChange)
    signal?.addEventListener("abort", onAbort, { once: true })
  })
}
