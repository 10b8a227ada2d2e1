/**
 * One upstream quote per cart state, single flight, a failure held briefly, each quote carrying the offers priced from
 * it; a shared second level for apps on several instances (decisions 9 and 42).
 */
import { createHash } from "node:crypto"
import { LRUCache } from "lru-cache"

/** `at`: when the value was loaded (ms since epoch), so a caller knows how old a cached quote is. */
export type CachedOutcome<T> = { ok: true; value: T; at: number } | { ok: false; error: unknown }

/** A quote as held, with what was priced from it, by the pricer's key; it lives and goes with the quote. */
export type HeldQuote<T, O = unknown> = CachedOutcome<T> & { offers: Map<string, Promise<O>> }

/** A quote in the shared store, with when it was fetched, so every instance expires it at the same time. */
export type SharedValue<T> = { value: T; at: number }

/** The second level: shared between instances, optionally with a lock so only one instance fetches. */
export interface SharedQuoteStore<T> {
  /** Whether `exclusive` really excludes other instances (a Locking module is there). */
  singleFlight: boolean
  get(key: string): Promise<SharedValue<T> | undefined>
  set(key: string, value: SharedValue<T>, ttlMs: number): Promise<void>
  /** Runs `job` holding the key's lock; rejects when the lock is not had within `waitMs`. */
  exclusive(key: string, waitMs: number, job: () => Promise<void>): Promise<void>
}

export interface QuoteCacheOptions<T = unknown> {
  ttlMs: number
  failureTtlMs: number
  /** At most this many quotes. Default 2,000. */
  max?: number
  /** And at most this much of them, each counted by `sizeOf` (a failure counts 1). */
  maxSize?: number
  sizeOf?: (value: T) => number
  shared?: SharedQuoteStore<T>
  /** How long an instance waits for another one's fetch of the same quote before fetching its own. */
  lockWaitMs?: number
  /** The clock (ms since epoch) for the TTLs and `at`; tests pass their own. */
  now?: () => number
}

export class QuoteCache<T extends object, O = unknown> {
  private readonly cache: LRUCache<string, HeldQuote<T, O>, () => Promise<T>>
  private readonly now: () => number

  constructor(private readonly options: QuoteCacheOptions<T>) {
    this.now = options.now ?? Date.now
    this.cache = new LRUCache<string, HeldQuote<T, O>, () => Promise<T>>({
      max: options.max ?? 2000,
      ...(options.maxSize && options.sizeOf
        ? {
            maxSize: options.maxSize,
            sizeCalculation: (held: HeldQuote<T, O>) => (held.ok ? Math.max(1, options.sizeOf!(held.value)) : 1),
          }
        : {}),
      ttl: Math.max(1, options.ttlMs),
      // Expired quotes are dropped as they expire, not when the LRU is full: memory follows the traffic.
      ttlAutopurge: true,
      ...(options.now ? { perf: { now: options.now } } : {}),
      fetchMethod: async (key, _stale, { context, options: setOptions }) => {
        const outcome = await this.loadThroughShared(key, context)
        if (!outcome.ok) {
          setOptions.ttl = Math.max(1, this.options.failureTtlMs)
        } else {
          // A quote another instance fetched earlier expires here when it expires there.
          setOptions.ttl = Math.max(1, this.options.ttlMs - (this.now() - outcome.at))
        }
        return { ...outcome, offers: new Map() }
      },
    })
  }

  /** The quote for `key`: cached, joined in flight, or loaded now. Never throws. */
  async get(key: string, load: () => Promise<T>): Promise<HeldQuote<T, O>> {
    // lru-cache reads a TTL of 0 as "forever", so caching switched off bypasses it.
    if (this.options.ttlMs <= 0) {
      return { ...(await settle(load, this.now)), offers: new Map() }
    }
    const held = await this.cache.fetch(key, { context: load })
    return held ?? { ok: false, error: new Error("quote cache returned nothing"), offers: new Map() }
  }

  /** Drops every quote held (what the service offers changed). */
  clear(): void {
    this.cache.clear()
  }

  /** The quote held for `key`, if any, without loading one. */
  peek(key: string): HeldQuote<T, O> | undefined {
    return this.cache.peek(key)
  }

  /**
   * The shared store's quote, else one fetched under the key's lock (another
   * instance may have stored it while this one waited), else, when the lock
   * is not had in time or the store fails, one fetched directly.
   */
  private async loadThroughShared(key: string, load: () => Promise<T>): Promise<CachedOutcome<T>> {
    const shared = this.options.shared
    if (!shared) {
      return settle(load, this.now)
    }
    const hit = await shared.get(key)
    if (hit) {
      return { ok: true, value: hit.value, at: hit.at }
    }
    let outcome: CachedOutcome<T> | undefined
    try {
      await shared.exclusive(key, this.options.lockWaitMs ?? 1000, async () => {
        const stored = shared.singleFlight ? await shared.get(key) : undefined
        outcome = stored ? { ok: true, value: stored.value, at: stored.at } : await settle(load, this.now)
        if (outcome.ok && !stored) {
          await shared.set(key, { value: outcome.value, at: outcome.at }, this.options.ttlMs)
        }
      })
    } catch {
      // The lock was not had in time, or the lock store failed: fetch without it below.
    }
    return outcome ?? settle(load, this.now)
  }
}

async function settle<T>(load: () => Promise<T>, now: () => number): Promise<CachedOutcome<T>> {
  try {
    return { ok: true, value: await load(), at: now() }
  } catch (error) {
    return { ok: false, error }
  }
}

/** A stable digest of a cart state: the same state gives the same key whatever the key order. */
export function fingerprint(value: unknown): string {
  return createHash("sha256").update(stableStringify(value)).digest("base64url")
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(stableStringify).join(",")}]`
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}
