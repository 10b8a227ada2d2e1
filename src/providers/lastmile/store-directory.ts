/** The service's store list, to attribute collection rates that do not name their store (decisions 5 and 26). */
import type { StoreDescription } from "../../lib/checkout/rate-selection"
import { toStoreDescriptions } from "../../lib/store/store-identity"
import { type ServiceFulfilmentLocation, onStoreListChanged } from "../../lib/service-client"

export interface StoreDirectoryOptions {
  /** How long a loaded list is used before a background refresh. */
  refreshMs: number
  /** After a failed load, how long before another is tried. */
  retryMs: number
  /** At most one read per this long for a rate the held list cannot attribute. Default 10 s. */
  missRefreshMs?: number
  warn: (message: string) => void
  now?: () => number
}

export class StoreDirectory {
  private stores: StoreDescription[] | undefined
  private loadedAt = 0
  /** Counts the lists read: whether a read brought a fresher one, even within one millisecond. */
  private generation = 0
  private failedAt = Number.NEGATIVE_INFINITY
  private missReadAt = Number.NEGATIVE_INFINITY
  private inFlight: Promise<void> | undefined
  /** The load a cart operation already waited for in vain: nobody waits on it again. */
  private waitedFor: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private readonly now: () => number

  /**
   * The admin read the service's locations (adopted as they are) or changed them (read again, once a list is
   * held). Held as long as the directory: the signal holds it weakly.
   */
  private readonly onChanged = (locations?: ServiceFulfilmentLocation[]): void => {
    if (locations) {
      this.adopt(toStoreDescriptions(locations))
    } else if (this.stores) {
      this.failedAt = Number.NEGATIVE_INFINITY
      void this.refresh()
    }
  }

  constructor(
    private readonly load: () => Promise<StoreDescription[]>,
    private readonly options: StoreDirectoryOptions
  ) {
    this.now = options.now ?? Date.now
    onStoreListChanged(this.onChanged)
  }

  /** The stores held now; before the first load, waits for it at most `waitMs`. Never throws. */
  async get(waitMs: number): Promise<StoreDescription[]> {
    // Kept fresh in the background from the first use on (the timer never holds the process open).
    if (!this.timer) {
      this.timer = setInterval(() => void this.refresh(), this.options.refreshMs)
      this.timer.unref()
    }
    if (this.stores) {
      if (this.now() - this.loadedAt > this.options.refreshMs) {
        void this.refresh()
      }
      return this.stores
    }
    await this.waitAtMost(this.refresh(), waitMs)
    return this.stores ?? []
  }

  /** A fresher list within `waitMs`: joins a read, else starts one (once per `missRefreshMs`); else undefined. */
  async refreshNow(waitMs: number): Promise<StoreDescription[] | undefined> {
    // Before the first list, `get` waits for the first load (once): nothing fresher to ask for.
    if (!this.stores) {
      return undefined
    }
    if (!this.inFlight) {
      if (this.now() - this.missReadAt < (this.options.missRefreshMs ?? 10_000)) {
        return undefined
      }
      this.missReadAt = this.now()
      this.failedAt = Number.NEGATIVE_INFINITY
    }
    return (await this.waitAtMost(this.refresh(), waitMs)) ? this.stores : undefined
  }

  /** Whether a read brought a list within `waitMs`; one that came too late is not waited for again. */
  private async waitAtMost(loading: Promise<void>, waitMs: number): Promise<boolean> {
    const before = this.generation
    if (waitMs <= 0 || this.waitedFor === loading) {
      return false
    }
    let timeout: NodeJS.Timeout | undefined
    await Promise.race([loading, new Promise<void>((resolve) => (timeout = setTimeout(resolve, waitMs)))])
    clearTimeout(timeout)
    if (this.generation === before) {
      this.waitedFor = loading
      return false
    }
    return true
  }

  private adopt(stores: StoreDescription[]): void {
    this.stores = stores
    this.loadedAt = this.now()
    this.generation++
  }

  private refresh(): Promise<void> {
    if (this.inFlight) {
      return this.inFlight
    }
    if (this.now() - this.failedAt < this.options.retryMs) {
      return Promise.resolve()
    }
    this.inFlight = this.load()
      .then((stores) => this.adopt(stores))
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
