import { nextAttemptAt, nextAttemptDelayMs } from "../backoff"

describe("the booking job's backoff", () => {
  it("waits 30 s after the first failure, doubling after each, never more than an hour", () => {
    expect([1, 2, 3, 4, 5].map(nextAttemptDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000])
    expect(nextAttemptDelayMs(8)).toBe(60 * 60_000)
    expect(nextAttemptDelayMs(40)).toBe(60 * 60_000)
  })

  it("reads an attempt count of 0 (a row settled before it was tried) as the first", () => {
    expect(nextAttemptDelayMs(0)).toBe(30_000)
  })

  it("dates the next attempt from the clock it is given", () => {
    const now = new Date("2026-12-01T09:00:00.000Z")
    expect(nextAttemptAt(3, now).toISOString()).toBe("2026-12-01T09:02:00.000Z")
  })
})
