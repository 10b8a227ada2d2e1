/**
 * The typed HTTP client of the last-mile service. One private `send` does the
 * transport (headers, timeout, JSON, status → error class); the public
 * methods add the retry rules that each operation can afford.
 */
import { createHash } from "node:crypto"
import { LRUCache } from "lru-cache"
import type { Dispatcher } from "undici"
import { borrowDispatcher } from "./agent-pool"
import {
  LastmileAuthenticationError,
  LastmileBookingOutcomeUnknownError,
  LastmileError,
  LastmileInvalidResponseError,
  LastmileRateLimitError,
  LastmileRejectedError,
  LastmileServerError,
  LastmileTimeoutError,
  LastmileUnreachableError,
  isOutcomeUnknown,
} from "./errors"
import { type ListPage, type PageRequest, nextPageRequest, requestedPage } from "./pagination"
import { redactSecrets, truncate } from "./redact"
import {
  DEFAULT_RETRY_POLICY,
  type RetryPolicy,
  backoffMs,
  fitsInBudget,
  parseRetryAfter,
  shouldRetryRead,
  shouldRetryUnsafeWrite,
} from "./retry-policy"
import {
  type BookingRequest,
  type QuoteRequest,
  type ServiceFulfilmentLocation,
  type ServiceQuote,
  type ServiceTask,
  SchemaMismatch,
  parseLocationItems,
  parseOptionalLocation,
  parseQuote,
  parseTask,
  readLocationsPage,
  readTaskLookupPage,
} from "./schemas"

/** The operations of the spec; also the keys of the simulator's faults. */
export type LastmileOperation =
  "quote" | "bookDelivery" | "lookupDelivery" | "bookReturn" | "listLocations" | "updateLocation"

export interface LastmileTimeouts {
  /** Total budget of a checkout quote, retries included. */
  quoteBudgetMs: number
  /** One booking attempt (delivery or return). */
  bookingMs: number
  /** One lookup attempt. */
  lookupMs: number
  /** One attempt at listing or updating fulfilment locations. */
  locationsMs: number
  /** Connecting a socket, within the attempt's time. */
  connectMs: number
}

export const DEFAULT_TIMEOUTS: LastmileTimeouts = {
  quoteBudgetMs: 3000,
  bookingMs: 10_000,
  lookupMs: 5000,
  locationsMs: 5000,
  connectMs: 2000,
}

/** The methods of Medusa's Logger that the client uses. */
export interface LastmileLogger {
  debug(message: string): void
  warn(message: string): void
}

export interface LastmileClientOptions {
  apiKey: string
  /** Root of the service's API; a path prefix (e.g. `/v1`) is kept. */
  baseUrl: string
  timeouts?: Partial<LastmileTimeouts>
  retry?: Partial<RetryPolicy>
  /** Paths tried in order for the location list, whose prefix the spec does not show. */
  locationsListPaths?: string[]
  /** The process's pool for the service's origin by default; tests may inject one. Never the global one. */
  dispatcher?: Dispatcher
  logger?: LastmileLogger
  userAgent?: string
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

export interface CallOptions {
  signal?: AbortSignal
}

export interface QuoteCallOptions extends CallOptions {
  /** Overrides the quote budget for this call. */
  budgetMs?: number
}

export interface BookingResult {
  task: ServiceTask
  /** True when the task was found by the lookup rather than read from the booking answer. */
  adopted: boolean
  /** Booking POSTs sent. */
  attempts: number
}

interface SendInit {
  operation: LastmileOperation
  method: "GET" | "POST" | "PATCH"
  path: string
  query?: URLSearchParams | Record<string, string>
  body?: unknown
  timeoutMs: number
  signal?: AbortSignal
}

interface SendResult {
  status: number
  json: unknown
}

const DEFAULT_LOCATIONS_PATHS = ["/fulfilment-locations", "/fulfilment/fulfilment-locations"]

const silentLogger: LastmileLogger = { debug: () => undefined, warn: () => undefined }

/** Most pages read of one list; a longer list is cut there, with a warning. */
export const MAX_LIST_PAGES = 20

interface ListRead {
  operation: LastmileOperation
  path: string
  query?: Record<string, string>
  timeoutMs: number
  signal?: AbortSignal
  readPage: (json: unknown, requestedPage: number | undefined) => ListPage
}

export class LastmileClient {
  private readonly apiKey: string
  private readonly origin: string
  private readonly basePath: string
  private readonly timeouts: LastmileTimeouts
  private readonly retry: RetryPolicy
  private readonly dispatcher: Dispatcher
  private readonly releaseDispatcher: () => Promise<void>
  private readonly logger: LastmileLogger
  private readonly userAgent: string
  private readonly sleep: (ms: number) => Promise<void>
  private readonly random: () => number
  private locationsPaths: string[]
  /** Warnings already given (bounded), so a repeated cause is logged once, not on every call. */
  private readonly warned = new LRUCache<string, true>({ max: 1000 })

  constructor(options: LastmileClientOptions) {
    if (!options.apiKey) {
      throw new TypeError("LastmileClient: apiKey is required")
    }
    let url: URL
    try {
      url = new URL(options.baseUrl)
    } catch {
      throw new TypeError("LastmileClient: baseUrl must be an absolute http(s) URL")
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError("LastmileClient: baseUrl must be an absolute http(s) URL")
    }
    this.apiKey = options.apiKey
    this.origin = url.origin
    this.basePath = url.pathname.replace(/\/+$/, "")
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry }
    this.locationsPaths = options.locationsListPaths?.length ? [...options.locationsListPaths] : DEFAULT_LOCATIONS_PATHS
    this.logger = options.logger ?? silentLogger
    this.userAgent = options.userAgent ?? "medusa-plugin-lastmile"
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.random = options.random ?? Math.random
    if (options.dispatcher) {
      this.dispatcher = options.dispatcher
      this.releaseDispatcher = async () => undefined
    } else {
      // One pool per service origin, shared with the process's other clients of it.
      const borrowed = borrowDispatcher(this.origin, { connectMs: this.timeouts.connectMs })
      this.dispatcher = borrowed.dispatcher
      this.releaseDispatcher = borrowed.release
    }
  }

  /** Gives back the pooled sockets (the pool closes when its last client does). */
  async close(): Promise<void> {
    await this.releaseDispatcher()
  }

  // ------------------------------------------------------------ operations

  /**
   * POST /task/quotes. Retried on connection errors, 429 and 5xx, but always
   * inside one total budget (checkout cannot wait longer than that).
   */
  async quote(request: QuoteRequest, options: QuoteCallOptions = {}): Promise<ServiceQuote> {
    const deadline = Date.now() + (options.budgetMs ?? this.timeouts.quoteBudgetMs)
    return this.withReadRetries(async () => {
      const timeoutMs = Math.max(1, deadline - Date.now())
      const { json } = await this.send({
        operation: "quote",
        method: "POST",
        path: "/task/quotes",
        body: request,
        timeoutMs,
        signal: options.signal,
      })
      const quote = this.parse("POST /task/quotes", json, parseQuote)
      for (const invalid of quote.invalidRates) {
        this.warnOnce(
          `rate:${invalid.issues.join(";")}`,
          `lastmile: left out an unreadable rate of a quote (${invalid.issues.slice(0, 3).join("; ")})`
        )
      }
      // Rates that were all unreadable are not "this route is not served".
      if (!quote.rates.length && quote.invalidRates.length) {
        throw new LastmileInvalidResponseError(
          "POST /task/quotes: every rate of the answer was unreadable",
          quote.invalidRates.flatMap((r) => r.issues),
          { operation: "POST /task/quotes" }
        )
      }
      return quote
    }, deadline)
  }

  /**
   * GET /task/deliveries?merchantOrderId=: every task the service holds for
   * that reference, across pages. An unreadable task fails the lookup: it
   * may be the booking, and leaving it out could book twice.
   */
  async findDeliveries(merchantOrderId: string, options: CallOptions = {}): Promise<ServiceTask[]> {
    try {
      const items = await this.readList({
        operation: "lookupDelivery",
        path: "/task/deliveries",
        query: { merchantOrderId },
        timeoutMs: this.timeouts.lookupMs,
        signal: options.signal,
        readPage: readTaskLookupPage,
      })
      return this.parse("GET /task/deliveries", items, (list) => (list as unknown[]).map((item) => parseTask(item)))
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

  /**
   * The task of a reference of one kind (the newest), or the one with
   * `taskId` when given; null when the lookup shows none.
   */
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
  async bookDelivery(request: BookingRequest, options: CallOptions = {}): Promise<BookingResult> {
    return this.bookSafely("bookDelivery", "/task/deliveries", request, options, true)
  }

  /**
   * POST /task/returns. The spec does not say that returns are de-duplicated,
   * so after an unknown outcome this looks the reference up but never posts
   * again: an unresolved outcome is thrown for the caller to settle.
   */
  async bookReturn(request: BookingRequest, options: CallOptions = {}): Promise<BookingResult> {
    return this.bookSafely("bookReturn", "/task/returns", request, options, false)
  }

  /**
   * GET the fulfilment locations, across pages (path prefix not shown: tries
   * the known candidates). An item that cannot be read is left out and
   * warned about once; the readable ones are returned.
   */
  async listFulfilmentLocations(options: CallOptions = {}): Promise<ServiceFulfilmentLocation[]> {
    let lastNotFound: unknown
    for (const path of this.locationsPaths) {
      let items: unknown[]
      try {
        items = await this.readList({
          operation: "listLocations",
          path,
          timeoutMs: this.timeouts.locationsMs,
          signal: options.signal,
          readPage: readLocationsPage,
        })
      } catch (error) {
        if (error instanceof LastmileRejectedError && error.status === 404) {
          lastNotFound = error
          continue
        }
        throw error
      }
      // Remember the path that answered so later calls go straight to it.
      this.locationsPaths = [path, ...this.locationsPaths.filter((p) => p !== path)]
      const { locations, rejected } = parseLocationItems(items)
      for (const { index, issues, item } of rejected) {
        this.warnOnce(
          `location:${fingerprintOf(item)}`,
          `lastmile: ignored an unreadable fulfilment location (${issues.slice(0, 3).join("; ")}) at position ${index + 1} of GET ${path}`
        )
      }
      return locations
    }
    throw lastNotFound
  }

  /** PATCH /fulfilment/fulfilment-locations/{id} `{collectionEnabled}` (idempotent, so retried). */
  async setCollectionEnabled(
    fulfilmentLocationId: string | number,
    collectionEnabled: boolean,
    options: CallOptions = {}
  ): Promise<ServiceFulfilmentLocation | undefined> {
    const path = `/fulfilment/fulfilment-locations/${encodeURIComponent(String(fulfilmentLocationId))}`
    return this.withReadRetries(async () => {
      const { json } = await this.send({
        operation: "updateLocation",
        method: "PATCH",
        path,
        body: { collectionEnabled },
        timeoutMs: this.timeouts.locationsMs,
        signal: options.signal,
      })
      return parseOptionalLocation(json)
    })
  }

  // ------------------------------------------------------------ lists

  /**
   * Every item of a list read, following the envelope's next page until the
   * last, at most MAX_LIST_PAGES pages. Each page has the timeout and retries
   * of the first. Errors of the first page are thrown; a 404 on a later page
   * ends the list.
   */
  private async readList(read: ListRead): Promise<unknown[]> {
    const first: PageRequest = { path: read.path, query: new URLSearchParams(read.query ?? {}) }
    const items: unknown[] = []
    const asked = new Set<string>([requestKey(first)])
    let current = first
    for (let pages = 1; ; pages++) {
      const label = `GET ${current.path}`
      let json: unknown
      try {
        const request = current
        json = (
          await this.withReadRetries(() =>
            this.send({
              operation: read.operation,
              method: "GET",
              path: request.path,
              query: request.query,
              timeoutMs: read.timeoutMs,
              signal: read.signal,
            })
          )
        ).json
      } catch (error) {
        if (pages > 1 && error instanceof LastmileRejectedError && error.status === 404) {
          this.logger.debug(`lastmile: ${label} page ${pages} answered 404: taken as the end of the list`)
          break
        }
        throw error
      }
      if (pages > 1 && (json === undefined || json === null || json === "")) {
        break
      }
      const page = this.parse(label, json, (value) => read.readPage(value, requestedPage(current)))
      items.push(...page.items)
      if (!page.next) {
        break
      }
      if (pages >= MAX_LIST_PAGES) {
        this.warnOnce(
          `pages:${read.operation}:${read.path}`,
          `lastmile: GET ${read.path} has more than ${MAX_LIST_PAGES} pages; only the first ${MAX_LIST_PAGES} were read`
        )
        break
      }
      const next = nextPageRequest(page.next, {
        origin: this.origin,
        basePath: this.basePath,
        first,
        current,
      })
      if (!next.ok) {
        const why =
          next.reason === "other_origin"
            ? `its next page is on another origin (${next.origin}), where the API key must not go`
            : next.reason === "unknown_page"
              ? "it says there are more pages but not which one comes next"
              : "its next-page link cannot be read"
        this.warnOnce(
          `next:${read.operation}:${read.path}:${next.reason}`,
          `lastmile: stopped reading GET ${read.path} after ${pages} page(s): ${why}`
        )
        break
      }
      const key = requestKey(next.request)
      if (asked.has(key)) {
        this.logger.debug(`lastmile: ${label} points back at a page already read: taken as the end of the list`)
        break
      }
      asked.add(key)
      current = next.request
    }
    return items
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) {
      return
    }
    this.warned.set(key, true)
    this.logger.warn(this.clean(message))
  }

  // ------------------------------------------------------------ retry shapes

  private async withReadRetries<T>(attempt: () => Promise<T>, deadline?: number): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt()
      } catch (error) {
        if (!shouldRetryRead(error, n, this.retry)) {
          throw error
        }
        const wait = backoffMs(n, this.retry, error, this.random)
        if (deadline !== undefined && !fitsInBudget(deadline, wait, Date.now())) {
          throw error
        }
        this.logger.debug(`lastmile: retrying after ${describe(error)} in ${wait} ms (attempt ${n + 1})`)
        await this.sleep(wait)
      }
    }
  }

  private async bookSafely(
    operation: "bookDelivery" | "bookReturn",
    path: string,
    request: BookingRequest,
    options: CallOptions,
    repostAfterUnknown: boolean
  ): Promise<BookingResult> {
    const merchantOrderId = request.order?.merchantOrderId
    const taskType = operation === "bookDelivery" ? "DELIVERY" : "RETURN"
    let posts = 0
    let unknown: unknown = undefined

    const lookUp = async (): Promise<ServiceTask | null | "failed"> => {
      try {
        return pickTask(await this.findDeliveries(merchantOrderId, options), taskType)
      } catch (error) {
        this.logger.warn(`lastmile: lookup of ${merchantOrderId} after an unknown outcome failed: ${describe(error)}`)
        return "failed"
      }
    }

    // Each round either settles an unknown outcome by a lookup, or posts. A round
    // past the last attempt only settles; it never posts.
    for (let n = 1; ; n++) {
      if (unknown !== undefined) {
        const found = await lookUp()
        if (found && found !== "failed") {
          this.logger.debug(`lastmile: adopted task ${found.taskId} for ${merchantOrderId} after ${describe(unknown)}`)
          return { task: found, adopted: true, attempts: posts }
        }
        if (n > this.retry.maxAttempts) {
          throw new LastmileBookingOutcomeUnknownError(
            `Booking ${merchantOrderId}: outcome unknown after ${posts} attempt(s) (${describe(unknown)})`,
            merchantOrderId,
            posts,
            unknown
          )
        }
        // Without proof that nothing was booked, never post again.
        if (found === "failed" || !repostAfterUnknown) {
          await this.sleep(backoffMs(n, this.retry, unknown, this.random))
          continue
        }
        unknown = undefined
      }
      try {
        posts++
        const { json } = await this.send({
          operation,
          method: "POST",
          path,
          body: request,
          timeoutMs: this.timeouts.bookingMs,
          signal: options.signal,
        })
        return { task: this.parse(`POST ${path}`, json, parseTask), adopted: false, attempts: posts }
      } catch (error) {
        // 409 is a plausible answer to a repeated merchantOrderId: the task exists.
        if ((error instanceof LastmileRejectedError && error.status === 409) || isOutcomeUnknown(error)) {
          unknown = error
          continue
        }
        // Refused before processing (connection refused, 429): safe to repeat, until the last attempt.
        if (!shouldRetryUnsafeWrite(error, n, this.retry)) {
          throw error
        }
        await this.sleep(backoffMs(n, this.retry, error, this.random))
      }
    }
  }

  // ------------------------------------------------------------ transport

  private async send(init: SendInit): Promise<SendResult> {
    const search = init.query ? new URLSearchParams(init.query).toString() : ""
    const query = search ? `?${search}` : ""
    const path = `${this.basePath}${init.path}${query}`
    const operation = `${init.method} ${init.path}`
    const timeoutSignal = AbortSignal.timeout(init.timeoutMs)
    const signal = init.signal ? AbortSignal.any([init.signal, timeoutSignal]) : timeoutSignal
    const headers: Record<string, string> = {
      "x-api-key": this.apiKey,
      accept: "application/json",
      "user-agent": this.userAgent,
    }
    let body: string | undefined
    if (init.body !== undefined) {
      headers["content-type"] = "application/json"
      body = JSON.stringify(init.body)
    }
    const started = Date.now()
    let response: Dispatcher.ResponseData
    let text: string
    try {
      response = await this.dispatcher.request({
        origin: this.origin,
        path,
        method: init.method,
        headers,
        body,
        signal,
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      })
      text = await response.body.text()
    } catch (error) {
      const mapped = this.transportError(error, operation, init.timeoutMs, timeoutSignal.aborted, init.signal)
      this.logger.debug(`lastmile: ${operation} failed in ${Date.now() - started} ms: ${mapped.message}`)
      throw mapped
    }
    const status = response.statusCode
    this.logger.debug(`lastmile: ${operation} → ${status} in ${Date.now() - started} ms`)

    if (status >= 200 && status < 300) {
      if (!text.trim()) {
        return { status, json: undefined }
      }
      try {
        return { status, json: JSON.parse(text) }
      } catch {
        throw new LastmileInvalidResponseError(
          `${operation}: the service answered ${status} with a body that is not JSON`,
          ["(root): not JSON"],
          {
            operation,
            status,
            body: this.clean(text),
          }
        )
      }
    }
    const details = { operation, status, body: this.clean(text) }
    const summary = `${operation}: the service answered ${status}${details.body ? `: ${truncate(details.body, 300)}` : ""}`
    if (status === 401 || status === 403) {
      throw new LastmileAuthenticationError(`${operation}: the service refused the API key (${status})`, details)
    }
    if (status === 429) {
      throw new LastmileRateLimitError(summary, {
        ...details,
        retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
      })
    }
    if (status >= 500) {
      throw new LastmileServerError(summary, details)
    }
    throw new LastmileRejectedError(summary, details)
  }

  private parse<T>(operation: string, json: unknown, parser: (value: unknown) => T): T {
    try {
      return parser(json)
    } catch (error) {
      const issues = error instanceof SchemaMismatch ? error.issues : [String(error)]
      throw new LastmileInvalidResponseError(
        `${operation}: unexpected answer (${issues.slice(0, 3).join("; ")})`,
        issues,
        {
          operation,
        }
      )
    }
  }

  private transportError(
    error: unknown,
    operation: string,
    timeoutMs: number,
    timedOut: boolean,
    callerSignal: AbortSignal | undefined
  ): LastmileError {
    const code = errorCode(error)
    if (timedOut || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
      return new LastmileTimeoutError(`${operation}: no answer within ${timeoutMs} ms`, timeoutMs, {
        operation,
        cause: error,
      })
    }
    if (callerSignal?.aborted) {
      return new LastmileTimeoutError(`${operation}: cancelled by the caller`, timeoutMs, { operation, cause: error })
    }
    // These fail before a byte is sent, so nothing can have been processed.
    const beforeSend =
      code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "UND_ERR_CONNECT_TIMEOUT"
    const reason = this.clean(error instanceof Error ? error.message : String(error))
    return new LastmileUnreachableError(`${operation}: the service could not be reached (${code ?? reason})`, {
      operation,
      cause: error,
      beforeSend,
    })
  }

  private clean(text: string): string {
    return truncate(redactSecrets(text, [this.apiKey]))
  }
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") {
      return code
    }
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

function requestKey(request: PageRequest): string {
  return `${request.path}?${request.query.toString()}`
}

/** A short, fixed-size key for an item of any size. */
function fingerprintOf(value: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(value) ?? String(value))
    .digest("base64url")
}

function describe(error: unknown): string {
  if (error instanceof LastmileError) {
    return error.status ? `${error.code} ${error.status}` : error.code
  }
  return error instanceof Error ? error.name : "error"
}

/**
 * The task of the wanted kind when the lookup lists several; the newest wins.
 * The taskType of a return is not shown, so anything but DELIVERY counts as one.
 */
export function pickTask(tasks: ServiceTask[], kind: "DELIVERY" | "RETURN"): ServiceTask | null {
  const matching = tasks.filter((t) => {
    const type = t.taskType?.toUpperCase()
    return !type || (kind === "DELIVERY" ? type === "DELIVERY" : type !== "DELIVERY")
  })
  if (!matching.length) {
    return null
  }
  return matching.reduce((newest, t) => ((t.createdAt ?? "") > (newest.createdAt ?? "") ? t : newest))
}
