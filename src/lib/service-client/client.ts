/**
 * The typed HTTP client of the last-mile service: the spec's operations over
 * the transport (transport.ts), which sends, times out, retries reads and
 * turns answers into error classes. The client adds what each operation
 * needs: the quote's budget, lists read to their end (list-reader.ts), and
 * bookings sent once (book-once.ts).
 */
import { createHash } from "node:crypto"
import { LRUCache } from "lru-cache"
import { borrowDispatcher } from "./agent-pool"
import { type Booker, bookOnce, pickTask } from "./book-once"
import {
  type BookingResult,
  type CallOptions,
  DEFAULT_LOCATIONS_PATH,
  DEFAULT_TIMEOUTS,
  type LastmileClientOptions,
  type LastmileTimeouts,
  type QuoteCallOptions,
} from "./client-options"
import { LastmileInvalidResponseError, LastmileRejectedError } from "./errors"
import { type ListSource, readList } from "./list-reader"
import { DEFAULT_RETRY_POLICY } from "./retry-policy"
import {
  type BookingRequest,
  type QuoteRequest,
  type ServiceFulfilmentLocation,
  type ServiceQuote,
  type ServiceTask,
  parseLocationItems,
  parseOptionalLocation,
  parseQuote,
  parseTask,
  readLocationsPage,
  readTaskLookupPage,
} from "./schemas"
import { type LastmileLogger, ServiceTransport, parseAnswer } from "./transport"

export type { LastmileLogger, LastmileOperation } from "./transport"

const silentLogger: LastmileLogger = { debug: () => undefined, warn: () => undefined }

export class LastmileClient {
  private readonly timeouts: LastmileTimeouts
  private readonly locationsPath: string
  private readonly transport: ServiceTransport
  private readonly releaseDispatcher: () => Promise<void>
  private readonly logger: LastmileLogger
  private readonly lists: ListSource
  private readonly booker: Booker
  /** Warnings already given (bounded), so a repeated cause is logged once, not on every call. */
  private readonly warned = new LRUCache<string, true>({ max: 1000 })

  constructor(options: LastmileClientOptions) {
    if (!options.apiKey) {
      throw new TypeError("LastmileClient: apiKey is required")
    }
    const url = URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : null
    if (url?.protocol !== "http:" && url?.protocol !== "https:") {
      throw new TypeError("LastmileClient: baseUrl must be an absolute http(s) URL")
    }
    const origin = url.origin
    const basePath = url.pathname.replace(/\/+$/, "")
    const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
    const random = options.random ?? Math.random
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
    this.locationsPath = options.locationsPath ?? DEFAULT_LOCATIONS_PATH
    this.logger = options.logger ?? silentLogger
    // One pool per service origin, shared with the process's other clients of it.
    const borrowed = options.dispatcher
      ? { dispatcher: options.dispatcher, release: async () => undefined }
      : borrowDispatcher(origin, { connectMs: this.timeouts.connectMs })
    this.releaseDispatcher = borrowed.release
    this.transport = new ServiceTransport({
      ...{ apiKey: options.apiKey, origin, basePath, userAgent: options.userAgent ?? "medusa-plugin-lastmile" },
      ...{ dispatcher: borrowed.dispatcher, retry, logger: this.logger, sleep, random },
    })
    const warnOnce = (key: string, message: string) => this.warnOnce(key, message)
    this.lists = { transport: this.transport, origin, basePath, warnOnce }
    const lookup = (merchantOrderId: string, call: CallOptions) => this.findDeliveries(merchantOrderId, call)
    this.booker = {
      transport: this.transport,
      retry,
      bookingMs: this.timeouts.bookingMs,
      logger: this.logger,
      sleep,
      random,
      lookup,
    }
  }

  /** Gives back the pooled sockets (the pool closes when its last client does). */
  async close(): Promise<void> {
    await this.releaseDispatcher()
  }

  /** POST /task/quotes, retried on connection errors, 429 and 5xx inside one total budget (checkout cannot wait longer). */
  async quote(request: QuoteRequest, options: QuoteCallOptions = {}): Promise<ServiceQuote> {
    const budgetMs = options.budgetMs ?? this.timeouts.quoteBudgetMs
    const { json } = await this.transport.send({
      operation: "quote",
      method: "POST",
      path: "/task/quotes",
      body: request,
      timeoutMs: budgetMs,
      deadline: Date.now() + budgetMs,
      signal: options.signal,
      read: true,
    })
    const quote = parseAnswer("POST /task/quotes", json, parseQuote)
    for (const { issues } of quote.invalidRates) {
      const shown = issues.slice(0, 3).join("; ")
      this.warnOnce(`rate:${issues.join(";")}`, `lastmile: left out an unreadable rate of a quote (${shown})`)
    }
    // Rates that were all unreadable are not "this route is not served".
    if (!quote.rates.length && quote.invalidRates.length) {
      const issues = quote.invalidRates.flatMap((r) => r.issues)
      const message = "POST /task/quotes: every rate of the answer was unreadable"
      throw new LastmileInvalidResponseError(message, issues, { operation: "POST /task/quotes" })
    }
    return quote
  }

  /**
   * GET /task/deliveries?merchantOrderId=: every task the service holds for
   * that reference, across pages. An unreadable task fails the lookup: it
   * may be the booking, and leaving it out could book twice.
   */
  async findDeliveries(merchantOrderId: string, options: CallOptions = {}): Promise<ServiceTask[]> {
    try {
      const items = await readList(
        {
          operation: "lookupDelivery",
          path: "/task/deliveries",
          query: { merchantOrderId },
          timeoutMs: this.timeouts.lookupMs,
          signal: options.signal,
          readPage: readTaskLookupPage,
        },
        this.lists
      )
      return parseAnswer("GET /task/deliveries", items, (list) => (list as unknown[]).map((item) => parseTask(item)))
    } catch (error) {
      // A single-task shape may answer 404 for "no such booking".
      if (error instanceof LastmileRejectedError && error.status === 404) {
        return []
      }
      throw error
    }
  }

  /** The delivery task for a reference, or null when none was booked. */
  findDelivery(merchantOrderId: string, options: CallOptions = {}): Promise<ServiceTask | null> {
    return this.findTask(merchantOrderId, { kind: "DELIVERY" }, options)
  }

  /** The task of a reference of one kind (the newest), or the one with `taskId` when given; null when the lookup shows none. */
  async findTask(
    merchantOrderId: string,
    { kind, taskId }: { kind: "DELIVERY" | "RETURN"; taskId?: string | null },
    options: CallOptions = {}
  ): Promise<ServiceTask | null> {
    const tasks = await this.findDeliveries(merchantOrderId, options)
    return pickTask(taskId ? tasks.filter((t) => String(t.taskId) === taskId) : tasks, kind)
  }

  /**
   * POST /task/deliveries, exactly once. The service de-duplicates on
   * `order.merchantOrderId`, but a lost answer leaves the outcome unknown, so
   * after a timeout, a dropped connection, a 5xx or an unreadable answer the
   * booking is looked up first and adopted when it exists; only when the
   * lookup proves there is none is the POST sent again. Throws
   * LastmileBookingOutcomeUnknownError when the attempts run out with the
   * outcome still unknown: the caller keeps the booking and tries later.
   */
  bookDelivery(request: BookingRequest, options: CallOptions = {}): Promise<BookingResult> {
    return bookOnce(this.booker, "bookDelivery", "/task/deliveries", request, options)
  }

  /**
   * POST /task/returns. The spec does not say that returns are de-duplicated,
   * so after an unknown outcome this looks the reference up but never posts
   * again: an unresolved outcome is thrown for the caller to settle.
   */
  bookReturn(request: BookingRequest, options: CallOptions = {}): Promise<BookingResult> {
    return bookOnce(this.booker, "bookReturn", "/task/returns", request, options)
  }

  /** GET the fulfilment locations across pages. An unreadable item is left out and warned about once. */
  async listFulfilmentLocations(options: CallOptions = {}): Promise<ServiceFulfilmentLocation[]> {
    const path = this.locationsPath
    const items = await readList(
      {
        operation: "listLocations",
        path,
        timeoutMs: this.timeouts.locationsMs,
        signal: options.signal,
        readPage: readLocationsPage,
      },
      this.lists
    )
    const { locations, rejected } = parseLocationItems(items)
    for (const { index, issues, item } of rejected) {
      this.warnOnce(
        `location:${createHash("sha256")
          .update(JSON.stringify(item) ?? String(item))
          .digest("base64url")}`,
        `lastmile: ignored an unreadable fulfilment location (${issues.slice(0, 3).join("; ")}) at position ${index + 1} of GET ${path}`
      )
    }
    return locations
  }

  /** PATCH /fulfilment/fulfilment-locations/{id} `{collectionEnabled}` (idempotent, so retried). */
  async setCollectionEnabled(
    fulfilmentLocationId: string | number,
    collectionEnabled: boolean,
    options: CallOptions = {}
  ): Promise<ServiceFulfilmentLocation | undefined> {
    const { json } = await this.transport.send({
      operation: "updateLocation",
      method: "PATCH",
      path: `/fulfilment/fulfilment-locations/${encodeURIComponent(String(fulfilmentLocationId))}`,
      body: { collectionEnabled },
      timeoutMs: this.timeouts.locationsMs,
      signal: options.signal,
      read: true,
    })
    return parseOptionalLocation(json)
  }

  private warnOnce(key: string, message: string): void {
    if (!this.warned.has(key)) {
      this.warned.set(key, true)
      this.logger.warn(this.transport.clean(message))
    }
  }
}

export { pickTask }
