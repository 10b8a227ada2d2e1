/** When the booking job tries a failed booking again (ARCHITECTURE.md, decision 12). */

/** 30 s after the first failed attempt, then twice as long after each one, capped at 1 hour. */
export function nextAttemptDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1))
}

/** When a task whose `attempts`-th attempt failed is booked again. */
export function nextAttemptAt(attempts: number, now: Date = new Date()): Date {
  return new Date(now.getTime() + nextAttemptDelayMs(attempts))
}
