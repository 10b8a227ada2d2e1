/**
 * The service's store list, needed to attribute collection rates that do not
 * name their store (ARCHITECTURE.md, decision 5). It is read at boot and refreshed in the
 * background, so a cart operation never waits on `GET /fulfilment-locations`
 * beyond the time its own budget has left: it reads what is held, and only
 * before the first load completes does it wait, for at most that time.
 */
import type { StoreDescription } from "../../lib/lastmile/rate-selection"

export interface StoreDirectoryOptions {
  /** How long a loaded list is used before a background refresh. */
  refreshMs: number
  /** After a failed load, how long before another is tried. */
  retryMs: number
  warn: (message: string) => void
  now?: () => number
}

export class StoreDirectory {
  private stores: StoreDescription[] | undefined
  private loadedAt = 0
  private failedAt = Number.NEGATIVE_INFINITY
  private inFlight: Promise<void> | undefined
  /** The load a cart operation already waited for in vain: nobody waits on it again. */
  private waitedFor: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private readonly now: () => number

  constructor(
    private readonly load: () => Promise<StoreDescription[]>,
    private readonly options: StoreDirectoryOptions
  ) {
    this.now = options.now ?? Date.now
  }

  /** Loads now and keeps the list fresh in the background (the timer never holds the process open). */
  start(): void {
    void this.refresh()
    if (!this.timer) {
      this.timer = setInterval(() => void this.refresh(), this.options.refreshMs)
      this.timer.unref()
    }
  }

  /** The stores held now; before the first load, waits for it at most `waitMs`. Never throws. */
  async get(waitMs: number): Promise<StoreDescription[]> {
    if (this.stores) {
      if (this.now() - this.loadedAt > this.options.refreshMs) {
        void this.refresh()
      }
      return this.stores
    }
    const loading = this.refresh()
    if (waitMs > 0 && this.waitedFor !== loading) {
      let timeout: NodeJS.Timeout | undefined
      await Promise.race([loading, new Promise<void>((resolve) => (timeout = setTimeout(resolve, waitMs)))])
      clearTimeout(timeout)
      if (!this.stores) {
        // Slow or failing: later cart operations stop waiting on this load.
        this.waitedFor = loading
      }
    }
    return this.stores ?? []
  }

  private refresh(): Promise<void> {
    if (this.inFlight) {
      return this.inFlight
    }
    if (this.now() - this.failedAt < this.options.retryMs) {
      return Promise.resolve()
    }
    this.inFlight = this.load()
      .then((stores) => {
        this.stores = stores
        this.loadedAt = this.now()
      })
      .catch((error: unknown) => {
        this.failedAt = this.now()
        // The list held before (if any) stays in use.
        this.options.warn(
          `lastmile: reading the service's store list failed; ${this.stores ? "keeping the last one" : "collection rates that do not name their store stay unavailable"}: ${error instanceof Error ? error.message : String(error)}`
        )
      })
      .finally(() => {
        this.inFlight = undefined
      })
    return this.inFlight
  }
}
