/**
 * One call to the service: the API key, JSON, timeouts and the answer's status as an error class; reads retried
 * within the call's budget, writes sent once; secrets redacted from what it lets out.
 */
import { type Dispatcher, type RetryHandler, interceptors } from "undici"
import {
  LastmileAuthenticationError,
  LastmileError,
  LastmileInvalidResponseError,
  LastmileRateLimitError,
  LastmileRejectedError,
  LastmileServerError,
  LastmileTimeoutError,
  LastmileUnreachableError,
} from "./errors"
import { type RetryPolicy, backoffMs, fitsInBudget, parseRetryAfter, shouldRetryRead } from "./retry-policy"
import { SchemaMismatch } from "./schemas"

/** The operations of the spec; also the keys of the simulator's faults. */
export type LastmileOperation =
  "quote" | "bookDelivery" | "lookupDelivery" | "bookReturn" | "listLocations" | "updateLocation"

/** The methods of Medusa's Logger that the client uses. */
export type LastmileLogger = Record<"debug" | "warn", (message: string) => void>

export interface TransportConfig {
  apiKey: string
  /** The service's origin: the only one the API key goes to. */
  origin: string
  /** The base URL's path prefix, without a trailing slash (`""` when none). */
  basePath: string
  userAgent: string
  dispatcher: Dispatcher
  retry: RetryPolicy
  logger: LastmileLogger
  sleep: (ms: number) => Promise<void>
  random: () => number
}

export interface SendInit {
  operation: LastmileOperation
  method: "GET" | "POST" | "PATCH"
  /** Below the base path (`/task/quotes`); names the call in errors and logs. */
  path: string
  /** The full path when it is not the base path's plus `path` (a next-page link). */
  fullPath?: string
  query?: URLSearchParams | Record<string, string>
  body?: unknown
  /** One attempt's time to the answer's headers, and between its body's chunks. */
  timeoutMs: number
  /** When the whole call, retries included, must be over (epoch ms). */
  deadline?: number
  signal?: AbortSignal
  /** Retried as a read (safe to repeat), or sent once. */
  read: boolean
}

export class ServiceTransport {
  constructor(readonly config: TransportConfig) {}

  /** The answer's JSON (undefined when empty), or the failure as its error class. */
  async send(init: SendInit): Promise<unknown> {
    const { apiKey, origin, basePath, userAgent, logger } = this.config
    const search = init.query ? new URLSearchParams(init.query).toString() : ""
    const operation = `${init.method} ${init.path}`
    const budget =
      init.deadline === undefined ? undefined : AbortSignal.timeout(Math.max(1, init.deadline - Date.now()))
    const signals = [init.signal, budget].filter((s): s is AbortSignal => !!s)
    const headers: Record<string, string> = { "x-api-key": apiKey, accept: "application/json", "user-agent": userAgent }
    if (init.body !== undefined) {
      headers["content-type"] = "application/json"
    }
    const started = Date.now()
    let response: Dispatcher.ResponseData
    let text: string
    try {
      const dispatcher = init.read
        ? this.config.dispatcher.compose(interceptors.retry({ throwOnError: false, retry: this.retryRule(init) }))
        : this.config.dispatcher
      response = await dispatcher.request({
        origin,
        path: `${init.fullPath ?? `${basePath}${init.path}`}${search ? `?${search}` : ""}`,
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      })
      text = await response.body.text()
    } catch (error) {
      const mapped = this.transportError(error, operation, init, budget?.aborted === true)
      logger.debug(`lastmile: ${operation} failed in ${Date.now() - started} ms: ${mapped.message}`)
      throw mapped
    }
    const status = response.statusCode
    logger.debug(`lastmile: ${operation} → ${status} in ${Date.now() - started} ms`)
    const body = this.clean(text)
    if (status >= 200 && status < 300) {
      try {
        return text.trim() ? JSON.parse(text) : undefined
      } catch {
        const message = `${operation}: the service answered ${status} with a body that is not JSON`
        throw new LastmileInvalidResponseError(message, ["(root): not JSON"], { operation, status, body })
      }
    }
    throw statusError(operation, status, response.headers["retry-after"], body)
  }

  /** Text from the service or an error, without the API key and of a readable size. */
  clean(text: string): string {
    return truncate(redactSecrets(text, [this.config.apiKey]))
  }

  /** The plugin's policy in the shape of undici's retry callback; the deadline stops a wait that would not fit. */
  private retryRule(init: SendInit): RetryHandler.RetryCallback {
    const { retry, random, sleep, logger } = this.config
    const operation = `${init.method} ${init.path}`
    return (raw, { state }, done) => {
      const error =
        errorCode(raw) === "UND_ERR_REQ_RETRY"
          ? attemptStatusError(operation, raw)
          : this.transportError(raw, operation, init)
      const attempt = state.counter
      const wait = backoffMs(attempt, retry, error, random)
      const fits = init.deadline === undefined || fitsInBudget(init.deadline, wait, Date.now())
      if (!shouldRetryRead(error, attempt, retry) || !fits || init.signal?.aborted) {
        done(raw)
        return
      }
      logger.debug(`lastmile: retrying after ${describeError(error)} in ${wait} ms (attempt ${attempt + 1})`)
      void sleep(wait).then(() => done(init.signal?.aborted ? raw : null))
    }
  }

  private transportError(error: unknown, operation: string, init: SendInit, budgetSpent = false): LastmileError {
    const code = errorCode(error)
    const timedOut = budgetSpent || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT"
    if (timedOut || init.signal?.aborted) {
      const within = budgetSpent && init.deadline !== undefined ? "the call's budget" : `${init.timeoutMs} ms`
      const why = timedOut ? `no answer within ${within}` : "cancelled by the caller"
      return new LastmileTimeoutError(`${operation}: ${why}`, init.timeoutMs, { operation, cause: error })
    }
    // These fail before a byte is sent, so nothing can have been processed.
    const beforeSend =
      code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "UND_ERR_CONNECT_TIMEOUT"
    const reason = code ?? this.clean(error instanceof Error ? error.message : String(error))
    const message = `${operation}: the service could not be reached (${reason})`
    return new LastmileUnreachableError(message, { operation, cause: error, beforeSend })
  }
}

/** A failed answer as its error class: the key refused, rate-limited (with Retry-After), the service failing, or refused. */
function statusError(operation: string, status: number, retryAfter: string | string[] | undefined, body: string) {
  const details = { operation, status, body }
  const summary = `${operation}: the service answered ${status}${body ? `: ${truncate(body, 300)}` : ""}`
  if (status === 401 || status === 403) {
    return new LastmileAuthenticationError(`${operation}: the service refused the API key (${status})`, details)
  }
  if (status === 429) {
    return new LastmileRateLimitError(summary, { ...details, retryAfterMs: parseRetryAfter(retryAfter) })
  }
  return status >= 500 ? new LastmileServerError(summary, details) : new LastmileRejectedError(summary, details)
}

/** A failed attempt the retry interceptor reports (status and headers, no body): its error class, for the policy. */
function attemptStatusError(operation: string, raw: Error): LastmileError {
  const { statusCode, headers } = raw as Error & { statusCode?: number; headers?: Record<string, string | string[]> }
  return statusError(operation, statusCode ?? 0, headers?.["retry-after"], "")
}

/** An answer read by `parser`; what it cannot read is an invalid answer naming where. */
export function parseAnswer<T>(operation: string, json: unknown, parser: (value: unknown) => T): T {
  try {
    return parser(json)
  } catch (error) {
    const issues = error instanceof SchemaMismatch ? error.issues : [String(error)]
    const message = `${operation}: unexpected answer (${issues.slice(0, 3).join("; ")})`
    throw new LastmileInvalidResponseError(message, issues, { operation })
  }
}

/** A failure in a few words for a log line: its code and status, or its kind; never its text. */
export function describeError(error: unknown): string {
  if (error instanceof LastmileError) {
    return error.status ? `${error.code} ${error.status}` : error.code
  }
  return error instanceof Error ? error.name : "error"
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

/** Removes secrets from text before it reaches an error or a log line, wherever they occur (an echoed key, a URL). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text
  for (const secret of secrets) {
    // Very short values would redact ordinary words; real keys are never that short.
    if (!secret || secret.length < 4) {
      continue
    }
    out = out.split(secret).join("[REDACTED]")
  }
  return out
}

/** Keeps an upstream body readable in an error without carrying megabytes around. */
export function truncate(text: string, max = 2000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`
}
