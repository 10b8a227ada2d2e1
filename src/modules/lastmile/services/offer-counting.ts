/**
 * The module's offer counting (decision 50): every option priced and every order's choice, tallied, written a few
 * seconds later in one statement, counted carts announced on the event bus; and the task rows an insights report reads.
 */
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { Modules, generateEntityId } from "@medusajs/framework/utils"
import { addDays, dayOf } from "../../../lib/insights/calendar"
import { type OfferPriced, onOfferPriced } from "../../../lib/insights/offer-signal"
import { type ChosenOption, type CountedCart, OfferTally } from "../../../lib/insights/offer-tally"
import type { OfferCountRow } from "../../../lib/insights/report"
import type { InsightTaskRow } from "../../../lib/insights/task-facts"
import { ThrottledLog } from "../../../lib/support/throttled-log"
import { errorMessage } from "../../../lib/support/error-message"
import { readInsightTasks } from "../insight-tasks"
import type { PluginSettingsService } from "./plugin-settings"
import { type ContainerLike, LASTMILE_MODULE } from "../module-name"

/** The event announcing carts counted for the first time on their day, with the options they were offered. */
export const OFFERS_COUNTED_EVENT = "lastmile.insights.offers_counted"

/** At most this many carts ride on one event: the rest are announced in the next. */
const MAX_CARTS_PER_EVENT = 200
/** How long after the first uncounted offer the counts are written. */
const FLUSH_AFTER_MS = 5000

type InjectedDependencies = {
  manager: { execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> }
  logger: Logger
  pluginSettingsService: PluginSettingsService
  [Modules.EVENT_BUS]?: IEventBusModuleService
}

export class OfferCountingService {
  /** The module's offer counts, from the app's container. */
  static of(container: ContainerLike): OfferCountingService {
    return container.resolve<{ offers: OfferCountingService }>(LASTMILE_MODULE).offers
  }

  protected readonly manager_: InjectedDependencies["manager"]
  private readonly timeZone: string
  /** Announces counted carts (the event bus); absent in a container without one. */
  private readonly announce?: (carts: CountedCart[]) => Promise<unknown>
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

  constructor({ manager, logger, pluginSettingsService, [Modules.EVENT_BUS]: bus }: InjectedDependencies) {
    this.manager_ = manager
    this.timeZone = pluginSettingsService.options.insights.timeZone
    this.announce = bus ? (offers) => bus.emit({ name: OFFERS_COUNTED_EVENT, data: { offers } }) : undefined
    this.tally = new OfferTally({ timeZone: this.timeZone })
    this.warnings = new ThrottledLog(logger, 60_000)
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
    }, FLUSH_AFTER_MS)
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
    if (counted.length && this.announce) {
      for (let i = 0; i < counted.length; i += MAX_CARTS_PER_EVENT) {
        await this.announce(counted.slice(i, i + MAX_CARTS_PER_EVENT)).catch((error: unknown) =>
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
    await this.manager_.execute(
      `INSERT INTO lastmile_offer_count (id, day, kind, fulfillment_option, stock_location_id, reason, count)
       VALUES ${values}
       ON CONFLICT (day, kind, fulfillment_option, stock_location_id, reason) WHERE deleted_at IS NULL
       DO UPDATE SET count = lastmile_offer_count.count + EXCLUDED.count, updated_at = now()`,
      params
    )
  }

  /** The counters of the days from `from` to `to`, both included. */
  async read(from: string, to: string): Promise<OfferCountRow[]> {
    const rows = await this.manager_.execute(
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
    const oldest = addDays(dayOf(now, this.timeZone), -retentionDays)
    // A statement that answers rows, whatever the driver makes of a bare DELETE.
    const [removed] = await this.manager_.execute(
      "WITH gone AS (DELETE FROM lastmile_offer_count WHERE day < ? RETURNING id) SELECT count(*)::int AS n FROM gone",
      [oldest]
    )
    return Number(removed?.n ?? 0)
  }

  /** The task rows that may count in an insights report of `[from, to)` (decision 51). */
  taskRows(from: Date, to: Date): Promise<InsightTaskRow[]> {
    return readInsightTasks(this.manager_, from, to)
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
