/**
 * Two instances' quote caches over one shared store (in-memory stand-ins of Medusa's Caching and Locking modules):
 * one quote per cart state between them, and a cart never blocked by the store.
 */
import type { ICachingModuleService, ILockingModule } from "@medusajs/framework/types"
import { QuoteCache } from "../quote-cache"
import { medusaSharedQuoteStore } from "../shared-quote-store"
import { ThrottledLog } from "../../../lib/support/throttled-log"

const warnings = new ThrottledLog({ warn: jest.fn() }, 60_000)

function memoryCaching(): ICachingModuleService & { failing: boolean } {
  const entries = new Map<string, { data: object; until: number }>()
  const caching = {
    failing: false,
    async get({ key }: { key?: string }) {
      if (caching.failing) {
        throw new Error("connection refused")
      }
      const entry = entries.get(key!)
      return entry && entry.until > Date.now() ? structuredClone(entry.data) : null
    },
    async set({ key, data, ttl }: { key: string; data: object; ttl?: number }) {
      if (caching.failing) {
        throw new Error("connection refused")
      }
      entries.set(key, { data: structuredClone(data), until: Date.now() + (ttl ?? 60) * 1000 })
    },
  }
  return caching as never
}

/** A lock per key with a wait timeout in seconds, as the Locking module's `execute`. */
function memoryLocking(): ILockingModule {
  const held = new Map<string, Promise<void>>()
  return {
    async execute<T>(key: string | string[], job: () => Promise<T>, args?: { timeout?: number }): Promise<T> {
      const name = String(key)
      const deadline = Date.now() + (args?.timeout ?? 5) * 1000
      while (held.has(name)) {
        const remaining = deadline - Date.now()
        if (remaining <= 0) {
          throw new Error("Timed-out acquiring lock.")
        }
        await Promise.race([held.get(name), new Promise((resolve) => setTimeout(resolve, remaining))])
      }
      let release!: () => void
      held.set(name, new Promise<void>((resolve) => (release = resolve)))
      try {
        return await job()
      } finally {
        held.delete(name)
        release()
      }
    },
  } as never
}

const quote = { rates: [{ rateCode: "ND" }], invalidRates: [] }

describe("the shared quote level", () => {
  it("fetches one quote for two instances pricing the same cart state at once", async () => {
    const caching = memoryCaching()
    const locking = memoryLocking()
    const instance = () =>
      new QuoteCache<typeof quote>({
        ttlMs: 30_000,
        failureTtlMs: 5000,
        shared: medusaSharedQuoteStore({ caching, locking, warnings }),
        lockWaitMs: 2000,
      })
    const [a, b] = [instance(), instance()]
    const load = jest.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return quote
    })

    const outcomes = await Promise.all([a.get("cart-1", load), b.get("cart-1", load), a.get("cart-1", load)])

    expect(load).toHaveBeenCalledTimes(1)
    expect(outcomes.every((o) => o.ok && o.value.rates[0].rateCode === "ND")).toBe(true)
    // Both report the same fetch time, so the shared quote expires everywhere at once.
    expect(new Set(outcomes.map((o) => (o.ok ? o.at : 0))).size).toBe(1)
  })

  it("shares a quote fetched earlier on another instance without a lock", async () => {
    const caching = memoryCaching()
    const shared = medusaSharedQuoteStore<typeof quote>({ caching, warnings })!
    const load = jest.fn(async () => quote)
    await new QuoteCache<typeof quote>({ ttlMs: 30_000, failureTtlMs: 5000, shared }).get("cart-2", load)
    await new QuoteCache<typeof quote>({ ttlMs: 30_000, failureTtlMs: 5000, shared }).get("cart-2", load)

    expect(shared.singleFlight).toBe(false)
    expect(load).toHaveBeenCalledTimes(1)
  })

  it("fetches directly, and warns once, when the shared store is down", async () => {
    const caching = memoryCaching()
    caching.failing = true
    const warn = jest.fn()
    const cache = new QuoteCache<typeof quote>({
      ttlMs: 30_000,
      failureTtlMs: 5000,
      shared: medusaSharedQuoteStore({
        caching,
        locking: memoryLocking(),
        warnings: new ThrottledLog({ warn }, 60_000),
      }),
    })

    const first = await cache.get("cart-3", async () => quote)
    const second = await cache.get("cart-4", async () => quote)

    expect(first.ok && second.ok).toBe(true)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0][0])).toMatch(/shared quote cache failed/)
  })

  it("does not wait past its lock time for another instance's slow quote", async () => {
    const caching = memoryCaching()
    const locking = memoryLocking()
    const slow = new QuoteCache<typeof quote>({
      ttlMs: 30_000,
      failureTtlMs: 5000,
      shared: medusaSharedQuoteStore({ caching, locking, warnings }),
    })
    const impatient = new QuoteCache<typeof quote>({
      ttlMs: 30_000,
      failureTtlMs: 5000,
      shared: medusaSharedQuoteStore({ caching, locking, warnings }),
      lockWaitMs: 1000,
    })
    // The other instance's quote comes only when the test says so.
    let answerSlow!: (value: typeof quote) => void
    const slowLoad = jest.fn(() => new Promise<typeof quote>((resolve) => (answerSlow = resolve)))
    const ownLoad = jest.fn(async () => quote)

    const held = slow.get("cart-5", slowLoad)
    await new Promise((resolve) => setImmediate(resolve))
    expect(slowLoad).toHaveBeenCalledTimes(1)
    const outcome = await impatient.get("cart-5", ownLoad)

    expect(outcome.ok).toBe(true)
    expect(ownLoad).toHaveBeenCalledTimes(1)
    answerSlow(quote)
    await held
  })

  it("keeps a quote failure to the instance that saw it, so another retries", async () => {
    const caching = memoryCaching()
    const shared = medusaSharedQuoteStore<typeof quote>({ caching, locking: memoryLocking(), warnings })
    const failing = jest.fn(async (): Promise<typeof quote> => {
      throw new Error("503")
    })
    const a = await new QuoteCache<typeof quote>({ ttlMs: 30_000, failureTtlMs: 5000, shared }).get("cart-6", failing)
    const b = await new QuoteCache<typeof quote>({ ttlMs: 30_000, failureTtlMs: 5000, shared }).get(
      "cart-6",
      async () => quote
    )

    expect(a.ok).toBe(false)
    expect(b.ok).toBe(true)
  })
})
