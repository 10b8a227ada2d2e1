/**
 * The rates route's answers (decisions 41 and 43): each cart's latest JSON with the state it was priced for, until
 * its oldest quote expires.
 */
import { LRUCache } from "lru-cache"
import type { LastmileRatesResponse } from "./option-rate"

/** How long an answer priced without a quote (fallback, outage, incomplete details) is kept: the provider's failure cache. */
export const UNQUOTED_TTL_MS = 5_000

/**
 * How long an answer may be served again: until its oldest quote expires,
 * never longer than a quote lives, and only a few seconds when an option
 * was priced without a quote (an outage's fallback, a kept price, details
 * to complete), so a recovered service is seen soon.
 */
export function answerTtlMs(answer: LastmileRatesResponse, quoteTtlMs: number, now: number): number {
  const unquoted = now + Math.min(UNQUOTED_TTL_MS, quoteTtlMs)
  let expires = answer.rates.length ? now + quoteTtlMs : unquoted
  for (const rate of answer.rates) {
    const quotedAt = rate.quoted_at ? Date.parse(rate.quoted_at) : NaN
    expires = Math.min(expires, Number.isFinite(quotedAt) ? quotedAt + quoteTtlMs : unquoted)
  }
  return Math.max(0, expires - now)
}

export interface KeptAnswer {
  /** The cart state and catalogue version it answers. */
  state: string
  /** The answer as JSON, as the route sends it (the check of a shopper's choice parses it). */
  body: string
}

export class RatesAnswers {
  private readonly kept: LRUCache<string, KeptAnswer>
  /** Answers being priced, by cart and state: concurrent asks for one state share one pricing. */
  private readonly pricing = new Map<string, Promise<KeptAnswer>>()

  constructor({ max = 10_000, maxBytes = 32 * 1024 * 1024 }: { max?: number; maxBytes?: number } = {}) {
    this.kept = new LRUCache<string, KeptAnswer>({
      max,
      maxSize: maxBytes,
      // At most two bytes per character in memory.
      sizeCalculation: (kept) => Math.max(1, kept.body.length * 2),
      ttl: 30_000,
      ttlAutopurge: true,
    })
  }

  /** The cart's answer for `state`: kept, joined while being priced, or priced now (a failed pricing is not kept). */
  async get(
    cartId: string,
    state: string,
    price: () => Promise<{ answer: LastmileRatesResponse; ttlMs: number }>
  ): Promise<KeptAnswer> {
    const kept = this.kept.get(cartId)
    if (kept?.state === state) {
      return kept
    }
    const running = `${cartId}\u0000${state}`
    let pricing = this.pricing.get(running)
    if (!pricing) {
      pricing = price()
        .then(({ answer, ttlMs }) => {
          const fresh = { state, body: JSON.stringify(answer) }
          if (ttlMs > 0) {
            this.kept.set(cartId, fresh, { ttl: ttlMs })
          }
          return fresh
        })
        .finally(() => this.pricing.delete(running))
      this.pricing.set(running, pricing)
    }
    return pricing
  }

  clear(): void {
    this.kept.clear()
  }

  /** How many answers are kept and their estimated size in bytes (for the benchmark's memory check). */
  get size(): { answers: number; bytes: number } {
    return { answers: this.kept.size, bytes: this.kept.calculatedSize ?? 0 }
  }
}
