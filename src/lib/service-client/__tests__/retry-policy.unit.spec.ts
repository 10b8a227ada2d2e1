import {
  LastmileRateLimitError,
  LastmileRejectedError,
  LastmileServerError,
  LastmileTimeoutError,
  LastmileUnreachableError,
} from "../errors"
import { backoffMs, fitsInBudget, parseRetryAfter, shouldRetryRead, shouldRetryUnsafeWrite } from "../retry-policy"

const policy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 2000 }

describe("retry policy", () => {
  describe("shouldRetryRead", () => {
    it.each([
      ["a 5xx", new LastmileServerError("x", { status: 503 })],
      ["a 429", new LastmileRateLimitError("x", { status: 429 })],
      ["a timeout", new LastmileTimeoutError("x", 100)],
      ["a refused connection", new LastmileUnreachableError("x", { beforeSend: true })],
      ["a reset connection", new LastmileUnreachableError("x")],
    ])("retries a read after %s", (_name, error) => {
      expect(shouldRetryRead(error, 1, policy)).toBe(true)
    })

    it("never retries a 4xx rejection or an unknown error", () => {
      expect(shouldRetryRead(new LastmileRejectedError("bad", { status: 400 }), 1, policy)).toBe(false)
      expect(shouldRetryRead(new Error("boom"), 1, policy)).toBe(false)
    })

    it("stops at the attempt limit", () => {
      expect(shouldRetryRead(new LastmileServerError("x"), 3, policy)).toBe(false)
    })
  })

  describe("shouldRetryUnsafeWrite", () => {
    it("repeats a write only when the service certainly did not process it", () => {
      expect(shouldRetryUnsafeWrite(new LastmileUnreachableError("refused", { beforeSend: true }), 1, policy)).toBe(
        true
      )
      expect(shouldRetryUnsafeWrite(new LastmileRateLimitError("slow down"), 1, policy)).toBe(true)
    })

    it("does not repeat a write whose outcome is unknown", () => {
      expect(shouldRetryUnsafeWrite(new LastmileServerError("x", { status: 500 }), 1, policy)).toBe(false)
      expect(shouldRetryUnsafeWrite(new LastmileTimeoutError("x", 10), 1, policy)).toBe(false)
      expect(shouldRetryUnsafeWrite(new LastmileUnreachableError("reset"), 1, policy)).toBe(false)
    })
  })

  describe("backoffMs", () => {
    it("doubles per attempt with jitter between half and the full delay", () => {
      expect(backoffMs(1, policy, undefined, () => 0)).toBe(50)
      expect(backoffMs(1, policy, undefined, () => 1)).toBe(100)
      expect(backoffMs(3, policy, undefined, () => 0)).toBe(200)
      expect(backoffMs(3, policy, undefined, () => 1)).toBe(400)
    })

    it("never waits longer than the cap", () => {
      expect(backoffMs(20, policy, undefined, () => 1)).toBe(2000)
    })

    it("waits at least as long as the service's Retry-After, within the cap", () => {
      const limited = new LastmileRateLimitError("x", { retryAfterMs: 700 })
      expect(backoffMs(1, policy, limited, () => 0)).toBe(700)
      const tooLong = new LastmileRateLimitError("x", { retryAfterMs: 60_000 })
      expect(backoffMs(1, policy, tooLong, () => 0)).toBe(2000)
    })
  })

  describe("parseRetryAfter", () => {
    it("reads seconds and HTTP dates", () => {
      expect(parseRetryAfter("2")).toBe(2000)
      expect(parseRetryAfter("0.5")).toBe(500)
      const now = Date.parse("2026-11-21T12:00:00Z")
      expect(parseRetryAfter("Sat, 21 Nov 2026 12:00:03 GMT", now)).toBe(3000)
    })

    it("ignores absent or unreadable values", () => {
      expect(parseRetryAfter(undefined)).toBeUndefined()
      expect(parseRetryAfter("soon")).toBeUndefined()
    })
  })

  it("fitsInBudget keeps room for one more attempt", () => {
    expect(fitsInBudget(1000, 100, 500)).toBe(true)
    expect(fitsInBudget(1000, 480, 500)).toBe(false)
  })
})
