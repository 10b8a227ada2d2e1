/**
 * One upstream quote per cart state. lru-cache gives the TTL and, through
 * `fetch`, the single flight: concurrent callers for the same fingerprint
 * share one in-flight request. A failure is remembered briefly too (negative
 * cache), so an outage costs one upstream call per cart state, not one per
 * option per refresh.
 */
import { createHash } from "node:crypto"
import { LRUCache } from "lru-cache"

/** `at`: when the value was loaded (ms since epoch), so a caller knows how old a cached quote is. */
export type CachedOutcome<T> = { ok: true; value: T; at: number } | { ok: false; error: unknown }

export interface QuoteCacheOptions {
  ttlMs: number
  failureTtlMs: number
  max?: number
}

export class QuoteCache<T extends object> {
  private readonly cache: LRUCache<string, CachedOutcome<T>, () => Promise<T>>

  constructor(private readonly options: QuoteCacheOptions) {
    this.cache = new LRUCache<string, CachedOutcome<T>, () => Promise<T>>({
      max: options.max ?? 5000,
      ttl: Math.max(1, options.ttlMs),
      fetchMethod: async (_key, _stale, { context, options: setOptions }) => {
        const outcome = await settle(context)
        if (!outcome.ok) {
          setOptions.ttl = Math.max(1, this.options.failureTtlMs)
        }
        return outcome
      },
    })
  }

  /** The outcome for `key`: cached, joined in flight, or loaded now. Never throws. */
  async get(key: string, load: () => Promise<T>): Promise<CachedOutcome<T>> {
    // lru-cache reads a TTL of 0 as "forever", so caching switched off bypasses it.
    if (this.options.ttlMs <= 0) {
      return settle(load)
    }
    const outcome = await this.cache.fetch(key, { context: load })
    return outcome ?? { ok: false, error: new Error("quote cache returned nothing") }
  }
}

async function settle<T>(load: () => Promise<T>): Promise<CachedOutcome<T>> {
  try {
    return { ok: true, value: await load(), at: Date.now() }
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
