/**
 * The module's side of offer counting (ARCHITECTURE.md, decision 50): it
 * hears every option the provider prices (`onOfferPriced`) and every order's
 * chosen option, keeps them in an `OfferTally`, and writes the increments to
 * `lastmile_offer_count` a few seconds later in one statement, and once more
 * at shutdown. Nothing of it runs on the checkout path but a push onto a
 * queue. Carts counted for the first time on their day are announced on the
 * event bus (`lastmile.insights.offers_counted`), which the analytics
 * subscriber forwards: one event per cart and day.
 */
import type { Logger } from "@medusajs/framework/types"
import { generateEntityId } from "@medusajs/framework/utils"
import { addDays, dayOf } from "../../lib/insights/calendar"
import { type OfferPriced, onOfferPriced } from "../../lib/insights/offer-signal"
import { type ChosenOption, type CountedCart, OfferTally } from "../../lib/insights/offer-tally"
import type { OfferCountRow } from "../../lib/insights/report"
import { ThrottledLog } from "../../lib/support/throttled-log"
import { errorMessage } from "../../lib/support/error-message"

/** The event announcing carts counted for the first time on their day, with the options they were offered. */
export const OFFERS_COUNTED_EVENT = "lastmile.insights.offers_counted"

/** At most this many carts ride on one event: the rest are announced in the next. */
const MAX_CARTS_PER_EVENT = 200

interface RawSql {
  execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>
}

export interface OfferCountsOptions {
  manager: RawSql
  logger: Logger
  timeZone: string
  /** Announces counted carts (the event bus); absent in a container without one. */
  announce?: (carts: CountedCart[]) => Promise<unknown>
  /** How long after the first uncounted offer the counts are written. Default 5 s. */
  flushAfterMs?: number
}

export class OfferCounts {
  private readonly tally: OfferTally
  private readonly warnings: ThrottledLog
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<number> = Promise.resolve(0)
  private closed = false
  /** Held for the module's life: the signal holds it weakly. */
  private readonly listener = (offer: OfferPriced) => {
    this.tally.priced(offer)
    this.schedule()
  }

  constructor(private readonly options: OfferCountsOptions) {
    this.tally = new OfferTally({ timeZone: options.timeZone })
    this.warnings = new ThrottledLog(options.logger, 60_000)
    onOfferPriced(this.listener)
  }

  /** An order placed with a lastmile option (counted once per order and option). */
  chosen(choice: ChosenOption): void {
    this.tally.chosen(choice)
    this.schedule()
  }

  private schedule(): void {
    if (this.timer || this.closed) {
      return
    }
    this.timer = setTimeout(() => {
      this.timer = null
      void this.flush()
    }, this.options.flushAfterMs ?? 5000)
    // Counting never keeps a process alive.
    this.timer.unref()
  }

  /** Writes what was counted since the last flush; one at a time. Resolves to the rows written. */
  flush(): Promise<number> {
    this.flushing = this.flushing.then(() => this.write())
    return this.flushing
  }

  private async write(): Promise<number> {
    const dropped = this.tally.takeDropped()
    if (dropped) {
      this.warnings.warn(
        "dropped",
        `lastmile: ${dropped} offer(s) were not counted: more came in than a flush could take`
      )
    }
    const { increments, counted } = this.tally.drain()
    if (increments.length) {
      try {
        for (let i = 0; i < increments.length; i += 500) {
          await this.upsert(increments.slice(i, i + 500))
        }
      } catch (error) {
        // Kept for the next flush: a database blip loses no count.
        this.tally.restore(increments)
        this.warnings.warn("flush", `lastmile: offer counts could not be written yet: ${errorMessage(error)}`)
        if (!this.closed) {
          this.schedule()
        }
        return 0
      }
    }
    if (counted.length && this.options.announce) {
      for (let i = 0; i < counted.length; i += MAX_CARTS_PER_EVENT) {
        await this.options
          .announce(counted.slice(i, i + MAX_CARTS_PER_EVENT))
          .catch((error: unknown) =>
            this.warnings.warn("announce", `lastmile: counted offers could not be announced: ${errorMessage(error)}`)
          )
      }
    }
    return increments.length
  }

  private async upsert(rows: OfferCountRow[]): Promise<void> {
    const values = rows.map(() => "(?, ?, ?, ?, ?, ?, ?)").join(", ")
    const params = rows.flatMap((r) => [
      generateEntityId(undefined, "lmoc"),
      r.day,
      r.kind,
      r.fulfillment_option,
      r.stock_location_id,
      r.reason,
      r.count,
    ])
    await this.options.manager.execute(
      `INSERT INTO lastmile_offer_count (id, day, kind, fulfillment_option, stock_location_id, reason, count)
       VALUES ${values}
       ON CONFLICT (day, kind, fulfillment_option, stock_location_id, reason) WHERE deleted_at IS NULL
       DO UPDATE SET count = lastmile_offer_count.count + EXCLUDED.count, updated_at = now()`,
      params
    )
  }

  /** The counters of the days from `from` to `to`, both included. */
  async read(from: string, to: string): Promise<OfferCountRow[]> {
    const rows = await this.options.manager.execute(
      `SELECT day, kind, fulfillment_option, stock_location_id, reason, count FROM lastmile_offer_count
       WHERE deleted_at IS NULL AND day >= ? AND day <= ?`,
      [from, to]
    )
    return rows.map((r) => ({
      day: String(r.day),
      kind: r.kind as OfferCountRow["kind"],
      fulfillment_option: String(r.fulfillment_option ?? ""),
      stock_location_id: String(r.stock_location_id ?? ""),
      reason: String(r.reason ?? ""),
      count: Number(r.count),
    }))
  }

  /** Removes the days older than `retentionDays` before today; resolves to the rows removed. */
  async prune(retentionDays: number, now: Date = new Date()): Promise<number> {
    const oldest = addDays(dayOf(now, this.options.timeZone), -retentionDays)
    // A statement that answers rows, whatever the driver makes of a bare DELETE.
    const [removed] = await this.options.manager.execute(
      "WITH gone AS (DELETE FROM lastmile_offer_count WHERE day < ? RETURNING id) SELECT count(*)::int AS n FROM gone",
      [oldest]
    )
    return Number(removed?.n ?? 0)
  }

  /** At shutdown: what is left is written, and nothing is scheduled again. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    await this.flush().catch(() => undefined)
  }
}
