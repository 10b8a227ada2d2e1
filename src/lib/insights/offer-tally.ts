/**
 * The offer counters of one process between two flushes (decision 50): a cart counted once a day per option and store,
 * whatever its states; digested and counted in `drain`, off the checkout path.
 */
import { LRUCache } from "lru-cache"
import { dayOf } from "./calendar"
import type { OfferPriced } from "./offer-signal"
import type { OfferCountRow } from "./report"

/** An option of a cart as counted today: offered in some state, or unavailable for its latest reason. */
export interface CountedOption {
  fulfillment_option: string
  stock_location_id: string | null
  offered: boolean
  reason: string | null
}

/** A cart counted for the first time on its day, with its options as counted by then: what the Analytics Module is told. */
export interface CountedCart {
  day: string
  cart_id: string
  options: CountedOption[]
}

export interface ChosenOption {
  at: Date | number
  order_id: string
  fulfillment_option: string
  stock_location_id: string | null
}

export interface OfferTallyOptions {
  timeZone: string
  /** Carts and their options remembered as counted. Default 100 000 (a few MB). */
  maxKeys?: number
  /** Offers queued between two flushes before new ones are dropped (and said). Default 50 000. */
  maxQueued?: number
}

/** Reasons are codes: anything else is cut to one, so a counter row's key stays short. */
export function reasonCode(value: string | null): string {
  const code = (value ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .slice(0, 60)
  return code || "unknown"
}

/** What a counted option key holds: offered, else the reason it is counted unavailable under. */
const OFFERED = "\u0000offered"

export class OfferTally {
  /** `day cart` → "" (the cart is counted); `day cart option store` → OFFERED or the reason counted. */
  private readonly counted: LRUCache<string, string>
  private queue: OfferPriced[] = []
  private readonly chosenQueue: ChosenOption[] = []
  private readonly pending = new Map<string, OfferCountRow>()
  private readonly maxQueued: number
  private dropped_ = 0

  constructor(private readonly options: OfferTallyOptions) {
    // A cart priced again tomorrow counts again tomorrow: keys carry their day, and need not outlive it by much.
    this.counted = new LRUCache<string, string>({ max: options.maxKeys ?? 100_000, ttl: 26 * 60 * 60_000 })
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

  /** Counts what was queued; returns the increments to write and the carts counted for the first time today. */
  drain(): { increments: OfferCountRow[]; counted: CountedCart[] } {
    const queue = this.queue
    this.queue = []
    const fresh = new Map<string, CountedCart & { byOption: Map<string, CountedOption> }>()
    for (const offer of queue) {
      const day = dayOf(offer.at, this.options.timeZone)
      const cart = `${day}\u0000${offer.cart_id}`
      if (!this.counted.has(cart)) {
        this.counted.set(cart, "")
        this.add({ day, kind: "cart", fulfillment_option: "", stock_location_id: "", reason: "" })
        fresh.set(cart, { day, cart_id: offer.cart_id, options: [], byOption: new Map() })
      }
      const location = offer.stock_location_id ?? ""
      const key = `${cart}\u0000${offer.fulfillment_option}\u0000${location}`
      const before = this.counted.get(key)
      const now = offer.unavailable === null ? OFFERED : reasonCode(offer.unavailable)
      if (before === OFFERED || before === now) {
        continue
      }
      const row = { day, fulfillment_option: offer.fulfillment_option, stock_location_id: location }
      if (before !== undefined) {
        // Offered now, or unavailable for another reason: the cart moves from the count it was in.
        this.add({ ...row, kind: "unavailable", reason: before }, -1)
      }
      this.add(now === OFFERED ? { ...row, kind: "offered", reason: "" } : { ...row, kind: "unavailable", reason: now })
      this.counted.set(key, now)
      fresh.get(cart)?.byOption.set(`${offer.fulfillment_option}\u0000${location}`, {
        fulfillment_option: offer.fulfillment_option,
        stock_location_id: offer.stock_location_id,
        offered: now === OFFERED,
        reason: now === OFFERED ? null : now,
      })
    }
    for (const choice of this.chosenQueue.splice(0)) {
      const location = choice.stock_location_id ?? ""
      const key = `chosen\u0000${choice.order_id}\u0000${choice.fulfillment_option}\u0000${location}`
      if (this.counted.has(key)) {
        continue
      }
      this.counted.set(key, "")
      this.add({
        day: dayOf(choice.at, this.options.timeZone),
        kind: "chosen",
        fulfillment_option: choice.fulfillment_option,
        stock_location_id: location,
        reason: "",
      })
    }
    // A cart that moved out of a count and back within one flush leaves a zero: nothing to write.
    const increments = [...this.pending.values()].filter((row) => row.count !== 0)
    this.pending.clear()
    const counted = [...fresh.values()].map(({ byOption, ...cart }) => ({ ...cart, options: [...byOption.values()] }))
    return { increments, counted }
  }

  /** Puts increments back after a failed write, to go with the next flush. */
  restore(increments: OfferCountRow[]): void {
    for (const { count, ...row } of increments) {
      this.add(row, count)
    }
  }
}
