/**
 * The offer counters of one process between two flushes (decision 50): each cart state counted once a day per option
 * and store; digested and counted in `drain`, off the checkout path.
 */
import { createHash } from "node:crypto"
import { LRUCache } from "lru-cache"
import { dayOf } from "./calendar"
import type { CartStateParts, OfferPriced } from "./offer-signal"
import type { OfferCountRow } from "./report"

/** An offer counted for the first time in its cart state: what the Analytics Module is told. */
export interface CountedOffer {
  day: string
  cart_id: string
  fulfillment_option: string
  stock_location_id: string | null
  offered: boolean
  reason: string | null
}

export interface ChosenOption {
  at: Date | number
  order_id: string
  fulfillment_option: string
  stock_location_id: string | null
}

export interface OfferTallyOptions {
  timeZone: string
  /** Cart states remembered as counted. Default 100 000 (a few MB). */
  maxKeys?: number
  /** Offers queued between two flushes before new ones are dropped (and said). Default 50 000. */
  maxQueued?: number
}

const ADDRESS_FIELDS = [
  "first_name",
  "last_name",
  "company",
  "address_1",
  "address_2",
  "city",
  "province",
  "postal_code",
  "country_code",
  "phone",
] as const

/** Reasons are codes: anything else is cut to one, so a counter row's key stays short. */
export function reasonCode(value: string | null): string {
  const code = (value ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .slice(0, 60)
  return code || "unknown"
}

/**
 * A digest of what a quote is made of: the address (the contact's name and
 * phone included, since an option is unavailable without them), the email,
 * the basket's variants and quantities, the currency. Anything else Medusa
 * hands over (timestamps, prices) leaves the state as it was.
 */
export function cartStateDigest(parts: CartStateParts): string {
  const address = (parts.address ?? {}) as Record<string, unknown>
  const items = Array.isArray(parts.items) ? (parts.items as (Record<string, unknown> | null)[]) : []
  const lines = items
    .flatMap((item) =>
      item ? [[String(item.variant_id ?? item.variant_sku ?? item.id ?? ""), Number(item.quantity)]] : []
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const state = {
    a: ADDRESS_FIELDS.map((field) =>
      String(address[field] ?? "")
        .trim()
        .toLowerCase()
    ),
    e: String(parts.email ?? "")
      .trim()
      .toLowerCase(),
    c: String(parts.currency ?? "").toLowerCase(),
    l: lines,
  }
  return createHash("sha256").update(JSON.stringify(state)).digest("base64url").slice(0, 22)
}

export class OfferTally {
  private readonly counted: LRUCache<string, true>
  private queue: OfferPriced[] = []
  private readonly chosenQueue: ChosenOption[] = []
  private readonly pending = new Map<string, OfferCountRow>()
  private readonly maxQueued: number
  private dropped_ = 0

  constructor(private readonly options: OfferTallyOptions) {
    // A state priced again tomorrow counts again tomorrow: keys carry their day, and need not outlive it by much.
    this.counted = new LRUCache<string, true>({ max: options.maxKeys ?? 100_000, ttl: 26 * 60 * 60_000 })
    this.maxQueued = options.maxQueued ?? 50_000
  }

  /** Queues an offer (the checkout path's cost: a push). */
  priced(offer: OfferPriced): void {
    if (this.queue.length >= this.maxQueued) {
      this.dropped_++
      return
    }
    this.queue.push(offer)
  }

  /** Queues an order's chosen option (counted once per order and option). */
  chosen(choice: ChosenOption): void {
    this.chosenQueue.push(choice)
  }

  /** Whether anything waits to be flushed. */
  get idle(): boolean {
    return !this.queue.length && !this.chosenQueue.length && !this.pending.size
  }

  /** Offers dropped since the last call because the queue was full. */
  takeDropped(): number {
    const dropped = this.dropped_
    this.dropped_ = 0
    return dropped
  }

  private add(row: Omit<OfferCountRow, "count">, count = 1): void {
    const key = [row.day, row.kind, row.fulfillment_option, row.stock_location_id, row.reason].join("\u0000")
    const existing = this.pending.get(key)
    if (existing) {
      existing.count += count
    } else {
      this.pending.set(key, { ...row, count })
    }
  }

  /** Counts what was queued; returns the increments to write and the offers counted for the first time. */
  drain(): { increments: OfferCountRow[]; counted: CountedOffer[] } {
    const queue = this.queue
    this.queue = []
    const counted: CountedOffer[] = []
    for (const offer of queue) {
      const day = dayOf(offer.at, this.options.timeZone)
      const state = `${day}\u0000${offer.cart_id}\u0000${cartStateDigest(offer.state)}`
      if (!this.counted.has(state)) {
        this.counted.set(state, true)
        this.add({ day, kind: "cart_state", fulfillment_option: "", stock_location_id: "", reason: "" })
      }
      const location = offer.stock_location_id ?? ""
      const key = `${state}\u0000${offer.fulfillment_option}\u0000${location}`
      if (this.counted.has(key)) {
        continue
      }
      this.counted.set(key, true)
      const reason = offer.unavailable === null ? "" : reasonCode(offer.unavailable)
      this.add({
        day,
        kind: offer.unavailable === null ? "offered" : "unavailable",
        fulfillment_option: offer.fulfillment_option,
        stock_location_id: location,
        reason,
      })
      counted.push({
        day,
        cart_id: offer.cart_id,
        fulfillment_option: offer.fulfillment_option,
        stock_location_id: offer.stock_location_id,
        offered: offer.unavailable === null,
        reason: reason || null,
      })
    }
    for (const choice of this.chosenQueue.splice(0)) {
      const location = choice.stock_location_id ?? ""
      const key = `chosen\u0000${choice.order_id}\u0000${choice.fulfillment_option}\u0000${location}`
      if (this.counted.has(key)) {
        continue
      }
      this.counted.set(key, true)
      this.add({
        day: dayOf(choice.at, this.options.timeZone),
        kind: "chosen",
        fulfillment_option: choice.fulfillment_option,
        stock_location_id: location,
        reason: "",
      })
    }
    const increments = [...this.pending.values()]
    this.pending.clear()
    return { increments, counted }
  }

  /** Puts increments back after a failed write, to go with the next flush. */
  restore(increments: OfferCountRow[]): void {
    for (const { count, ...row } of increments) {
      this.add(row, count)
    }
  }
}
