/** One upstream quote per cart state: single flight, kept for its TTL, a failure remembered briefly. Time is Jest's fake clock. */
import { QuoteCache, fingerprint } from "../quote-cache"

/** Jest's fake clock, read when asked (lru-cache keeps the clock it was built with). */
const now = () => Date.now()

describe("QuoteCache", () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it("shares one load among concurrent callers and serves the answer until it expires", async () => {
    const cache = new QuoteCache<{ n: number }>({ ttlMs: 60_000, failureTtlMs: 1000, now })
    let calls = 0
    const load = async () => {
      calls++
      await Promise.resolve()
      return { n: calls }
    }
    const outcomes = await Promise.all(Array.from({ length: 11 }, () => cache.get("cart-1", load)))
    expect(calls).toBe(1)
    expect(outcomes.every((o) => o.ok && o.value.n === 1)).toBe(true)
    jest.advanceTimersByTime(59_000)
    await cache.get("cart-1", load)
    expect(calls).toBe(1)
    await cache.get("cart-2", load)
    expect(calls).toBe(2)
    jest.advanceTimersByTime(2_000)
    expect(await cache.get("cart-1", load)).toMatchObject({ ok: true, value: { n: 3 } })
  })

  it("remembers a failure briefly instead of calling again at once, and never throws", async () => {
    const cache = new QuoteCache<{ n: number }>({ ttlMs: 60_000, failureTtlMs: 50, now })
    let calls = 0
    const failing = async () => {
      calls++
      throw new Error("down")
    }
    const first = await cache.get("k", failing)
    jest.advanceTimersByTime(40)
    await cache.get("k", failing)
    expect(first.ok).toBe(false)
    expect(calls).toBe(1)
    jest.advanceTimersByTime(20)
    await cache.get("k", failing)
    expect(calls).toBe(2)
  })

  it("holds what was priced from a quote with it, and stays within its count and size", async () => {
    const cache = new QuoteCache<{ rates: number[] }, string>({
      ttlMs: 60_000,
      failureTtlMs: 1000,
      max: 3,
      maxSize: 10,
      sizeOf: (quote) => quote.rates.length,
      now,
    })
    const held = await cache.get("cart-1", async () => ({ rates: [1, 2, 3, 4] }))
    held.offers.set("option", Promise.resolve("priced"))
    expect(await cache.peek("cart-1")?.offers.get("option")).toBe("priced")
    await cache.get("cart-2", async () => ({ rates: [1, 2, 3, 4] }))
    // A third quote of 4 rates passes the 10 allowed: the least recently used goes.
    await cache.get("cart-3", async () => ({ rates: [1, 2, 3, 4] }))
    expect(cache.peek("cart-1")).toBeUndefined()
    expect(cache.peek("cart-3")).toBeDefined()
    cache.clear()
    expect(cache.peek("cart-3")).toBeUndefined()
  })

  it("fingerprints equal states equally, whatever the key order, and different states differently", () => {
    expect(fingerprint({ a: 1, b: [1, 2] })).toBe(fingerprint({ b: [1, 2], a: 1 }))
    expect(fingerprint({ a: 1, b: [1, 2] })).not.toBe(fingerprint({ a: 1, b: [2, 1] }))
  })
})
