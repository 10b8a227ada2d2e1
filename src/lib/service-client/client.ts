/**
 * The typed HTTP client of the service: the spec's operations over the transport, with the quote's budget, lists read
 * to their end and bookings sent once.
 */
import { createHash } from "node:crypto"
import { LRUCache } from "lru-cache"
import { borrowDispatcher } from "./agent-pool"
import {
  type BookingResult,
  type CallOptions,
  DEFAULT_LOCATIONS_PATH,
  DEFAULT_TIMEOUTS,
  type LastmileClientOptions,
  type LastmileTimeouts,
  type QuoteCallOptions,
} from "./client-options"
import {
  LastmileBookingOutcomeUnknownError,
  LastmileInvalidResponseError,
  LastmileRejectedError,
  isOutcomeUnknown,
} from "./errors"
import { readList } from "./list-reader"
import { DEFAULT_RETRY_POLICY, backoffMs, shouldRetryUnsafeWrite } from "./retry-policy"
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
import { type LastmileLogger, ServiceTransport, describeError, parseAnswer } from "./transport"

export type { LastmileLogger, LastmileOperation } from "./transport"

const silentLogger: LastmileLogger = { debug: () => undefined, warn: () => undefined }

export class LastmileClient {
  private readonly timeouts: LastmileTimeouts
  private readonly locationsPath: string
  private readonly transport: ServiceTransport
  private readonly releaseDispatcher: () => Promise<void>
  private readonly logger: LastmileLogger
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
  }

  /** Gives back the pooled sockets (the pool closes when its last client does). */
  async close(): Promise<void> {
    await this.releaseDispatcher()
  }

  /** POST /task/quotes, retried on connection errors, 429 and 5xx inside one total budget (checkout cannot wait longer). */
  async quote(request: QuoteRequest, options: QuoteCallOptions = {}): Promise<ServiceQuote> {
    const budgetMs = options.budgetMs ?? this.timeouts.quoteBudgetMs
    const json = await this.transport.send({
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

  /** GET /task/deliveries?merchantOrderId=, every page. An unreadable task fails it: left out, it could book twice. */
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
        this.transport,
        this.warnOnce
      )
      return parseAnswer("GET /task/deliveries", items, () => items.map((item) => parseTask(item)))
    } catch (error) {
      // A single-task shape may answer 404 for "no such booking".
      if (error instanceof LastmileRejectedError && error.status === 404) {
        return []
      }
      throw error
    }
  }

  /** The delivery task of a reference (the newest), or null when none was booked; documented for users' own code. */
  findDelivery(merchantOrderId: string, options: CallOptions = {}): Promise<ServiceTask | null> {
    return this.findTask(merchantOrderId, { kind: "DELIVERY" }, options)
  }

  /**
   * The task of a reference of one kind (the newest), or the one with `taskId` when given; null when the lookup
   * shows none. The taskType of a return is not shown, so anything but DELIVERY counts as one.
   */
  async findTask(
    merchantOrderId: string,
    { kind, taskId }: { kind: "DELIVERY" | "RETURN"; taskId?: string | null },
    options: CallOptions = {}
  ): Promise<ServiceTask | null> {
    const matching = (await this.findDeliveries(merchantOrderId, options)).filter((t) => {
      const type = t.taskType?.toUpperCase()
      const ofKind = !type || (kind === "DELIVERY" ? type === "DELIVERY" : type !== "DELIVERY")
      return ofKind && (!taskId || String(t.taskId) === taskId)
    })
    const newer = (newest: ServiceTask | null, t: ServiceTask) =>
      !newest || (t.createdAt ?? "") > (newest.createdAt ?? "") ? t : newest
    return matching.reduce(newer, null)
  }

  /**
   * POST /task/deliveries, exactly once: after a lost answer the booking is looked up and adopted, and posted
   * again only when the lookup shows none. LastmileBookingOutcomeUnknownError: the caller tries later.
   */
  bookDelivery(request: BookingRequest, options: CallOptions = {}): Promise<BookingResult> {
    return this.book("bookDelivery", "/task/deliveries", request, options)
  }

  /** POST /task/returns. Returns are not said to be de-duplicated: after an unknown outcome, looked up, never posted again. */
  bookReturn(request: BookingRequest, options: CallOptions = {}): Promise<BookingResult> {
    return this.book("bookReturn", "/task/returns", request, options)
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
      this.transport,
      this.warnOnce
    )
    const { locations, rejected } = parseLocationItems(items)
    for (const { index, issues, item } of rejected) {
      const text = JSON.stringify(item) ?? String(item)
      this.warnOnce(
        `location:${createHash("sha256").update(text).digest("base64url")}`,
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
    const json = await this.transport.send({
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

  /** Each round either settles an unknown outcome by a lookup, or posts; a round past the last attempt only settles. */
  private async book(
    operation: "bookDelivery" | "bookReturn",
    path: string,
    request: BookingRequest,
    options: CallOptions
  ): Promise<BookingResult> {
    const { retry, logger, sleep, random } = this.transport.config
    const merchantOrderId = request.order?.merchantOrderId
    const kind = operation === "bookDelivery" ? "DELIVERY" : "RETURN"
    let posts = 0
    let unknown: unknown = undefined
    for (let n = 1; ; n++) {
      if (unknown !== undefined) {
        const found = await this.findTask(merchantOrderId, { kind }, options).catch((error: unknown) => {
          logger.warn(`lastmile: lookup of ${merchantOrderId} after an unknown outcome failed: ${describeError(error)}`)
          return "failed" as const
        })
        if (found && found !== "failed") {
          logger.debug(`lastmile: adopted task ${found.taskId} for ${merchantOrderId} after ${describeError(unknown)}`)
          return { task: found, adopted: true, attempts: posts }
        }
        if (n > retry.maxAttempts) {
          const message = `Booking ${merchantOrderId}: outcome unknown after ${posts} attempt(s) (${describeError(unknown)})`
          throw new LastmileBookingOutcomeUnknownError(message, merchantOrderId, posts, unknown)
        }
        // Without proof that nothing was booked, never post again.
        if (found === "failed" || kind === "RETURN") {
          await sleep(backoffMs(n, retry, unknown, random))
          continue
        }
        unknown = undefined
      }
      try {
        posts++
        const json = await this.transport.send({
          ...{ operation, method: "POST", path, body: request, timeoutMs: this.timeouts.bookingMs },
          ...{ signal: options.signal, read: false },
        })
        return { task: parseAnswer(`POST ${path}`, json, parseTask), adopted: false, attempts: posts }
      } catch (error) {
        // 409 is a plausible answer to a repeated merchantOrderId: the task exists.
        if ((error instanceof LastmileRejectedError && error.status === 409) || isOutcomeUnknown(error)) {
          unknown = error
          continue
        }
        // Refused before processing (connection refused, 429): safe to repeat, until the last attempt.
        if (!shouldRetryUnsafeWrite(error, n, retry)) {
          throw error
        }
        await sleep(backoffMs(n, retry, error, random))
      }
    }
  }

  private readonly warnOnce = (key: string, message: string): void => {
    if (!this.warned.has(key)) {
      this.warned.set(key, true)
      this.logger.warn(this.transport.clean(message))
    }
  }
}
