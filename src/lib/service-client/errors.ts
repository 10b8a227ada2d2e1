/**
 * Errors of the service client: callers branch on the class or `code`, never on the message; every text held here has
 * had the API key removed and is cleaned as the service's answers are (decision 29).
 */
import { cleanText } from "./service-text"

/** The longest body, message or issue an error keeps (the transport already truncates the body). */
const MAX_ERROR_TEXT = 2200
const MAX_ISSUE_TEXT = 300

const ERROR_CODES = [
  "unreachable",
  "timeout",
  "rejected",
  "authentication",
  "rate_limited",
  "server_error",
  "invalid_response",
  "booking_outcome_unknown",
] as const

export type LastmileErrorCode = (typeof ERROR_CODES)[number]

/** The service down or overloaded rather than refusing us: a read may be repeated after these. */
const OUTAGE_CODES = new Set<LastmileErrorCode>(["timeout", "unreachable", "server_error", "rate_limited"])

/** The code of a LastmileError, or of its copy by Medusa's workflow engine (which keeps properties, not the class). */
export function serviceErrorCodeOf(error: unknown): LastmileErrorCode | null {
  if (error instanceof LastmileError) {
    return error.code
  }
  const code = error && typeof error === "object" ? (error as { code?: unknown }).code : undefined
  return ERROR_CODES.find((known) => known === code) ?? null
}

export interface LastmileErrorDetails {
  /** HTTP method and path of the request (no query string secrets, no host). */
  operation?: string
  status?: number
  /** Upstream body text, redacted and truncated. */
  body?: string
  cause?: unknown
}

export class LastmileError extends Error {
  readonly code: LastmileErrorCode
  readonly operation?: string
  readonly status?: number
  readonly body?: string
  /**
   * True when the request certainly did not change anything at the service:
   * safe to repeat even for a booking.
   */
  readonly notProcessed: boolean

  constructor(code: LastmileErrorCode, message: string, details: LastmileErrorDetails = {}, notProcessed = false) {
    super(cleanText(message, MAX_ERROR_TEXT), details.cause === undefined ? undefined : { cause: details.cause })
    this.name = new.target.name
    this.code = code
    this.operation = details.operation
    this.status = details.status
    this.body = details.body === undefined ? undefined : cleanText(details.body, MAX_ERROR_TEXT)
    this.notProcessed = notProcessed
  }

  /** Whether a read (quote, lookup, list) may be repeated after this error. */
  get transient(): boolean {
    return OUTAGE_CODES.has(this.code)
  }
}

/** The service could not be reached: DNS, refused or reset connection. */
export class LastmileUnreachableError extends LastmileError {
  constructor(message: string, details: LastmileErrorDetails & { beforeSend?: boolean } = {}) {
    // A refused connection never reached the service, so nothing was processed.
    super("unreachable", message, details, details.beforeSend === true)
  }
}

/** No complete answer arrived within the time allowed. */
export class LastmileTimeoutError extends LastmileError {
  readonly timeoutMs: number

  constructor(message: string, timeoutMs: number, details: LastmileErrorDetails = {}) {
    super("timeout", message, details)
    this.timeoutMs = timeoutMs
  }
}

/** The service refused the request (4xx): fix the request, do not repeat it. */
export class LastmileRejectedError extends LastmileError {
  constructor(message: string, details: LastmileErrorDetails = {}, code: LastmileErrorCode = "rejected") {
    super(code, message, details, true)
  }
}

/** 401 or 403: the API key is missing, wrong or not allowed this call. */
export class LastmileAuthenticationError extends LastmileRejectedError {
  constructor(message: string, details: LastmileErrorDetails = {}) {
    super(message, details, "authentication")
  }
}

/** 429: the service asks us to slow down; the request was not processed. */
export class LastmileRateLimitError extends LastmileError {
  /** How long the service asked us to wait, when it said. */
  readonly retryAfterMs?: number

  constructor(message: string, details: LastmileErrorDetails & { retryAfterMs?: number } = {}) {
    super("rate_limited", message, details, true)
    this.retryAfterMs = details.retryAfterMs
  }
}

/** 5xx: the service failed; for a write, whether it was applied is unknown. */
export class LastmileServerError extends LastmileError {
  constructor(message: string, details: LastmileErrorDetails = {}) {
    super("server_error", message, details)
  }
}

/** The answer was not JSON, or did not have the shape the spec gives. */
export class LastmileInvalidResponseError extends LastmileError {
  /** Where the answer differed from the schema, e.g. `rates.0.rateCode: Required`. */
  readonly issues: string[]

  constructor(message: string, issues: string[], details: LastmileErrorDetails = {}) {
    super("invalid_response", message, details)
    // A path names the answer's own keys, which are the service's text too.
    this.issues = issues.map((issue) => cleanText(issue, MAX_ISSUE_TEXT))
  }
}

/** A booking whose fate neither the answer nor the lookup settled: the caller keeps it for a retry, never drops it. */
export class LastmileBookingOutcomeUnknownError extends LastmileError {
  readonly merchantOrderId: string
  readonly attempts: number

  constructor(message: string, merchantOrderId: string, attempts: number, cause: unknown) {
    super("booking_outcome_unknown", message, { cause, operation: "POST /task/deliveries" })
    this.merchantOrderId = merchantOrderId
    this.attempts = attempts
  }
}

/** True when a failed write may or may not have been applied by the service. */
export function isOutcomeUnknown(error: unknown): boolean {
  return error instanceof LastmileError && !error.notProcessed && UNKNOWN_OUTCOME_CODES.has(error.code)
}

const UNKNOWN_OUTCOME_CODES = new Set<LastmileErrorCode>(["timeout", "unreachable", "server_error", "invalid_response"])

/** The service down or overloaded (timeout, unreachable, 5xx, 429), not refusing us: callers fall back or try later. */
export function isServiceOutage(error: unknown): boolean {
  if (error instanceof LastmileBookingOutcomeUnknownError) {
    // Unsettled because of what cut the booking short.
    return isServiceOutage(error.cause)
  }
  return error instanceof LastmileError && error.transient
}

/** Why the service refused, for the merchant, by code and status; never the API key (held bodies are redacted). */
export function describeRefusal(failure: unknown): string {
  const code = serviceErrorCodeOf(failure)
  if (!code) {
    // Not from the service: its message is not ours to vouch for, so only its kind is named.
    return `an unexpected ${failure instanceof Error ? failure.name : typeof failure} inside the plugin, not an answer of the service`
  }
  // A LastmileError, or its plain copy from a workflow: the same fields.
  const error = failure as { status?: unknown; body?: unknown; issues?: unknown; timeoutMs?: unknown }
  const status = typeof error.status === "number" ? ` (${error.status})` : ""
  const reason = code === "rejected" ? refusalReason(typeof error.body === "string" ? error.body : undefined) : ""
  const issues = code === "invalid_response" && Array.isArray(error.issues) ? error.issues.slice(0, 3).join("; ") : ""
  const refusals: Record<LastmileErrorCode, string> = {
    authentication: `the service refused the API key${status}: check the provider's api_key`,
    rejected: `the service refused the request${status}${reason ? `: ${reason}` : ""}`,
    invalid_response: `the service answered in an unexpected shape${issues ? `: ${issues}` : ""}`,
    timeout: `the service did not answer in time${typeof error.timeoutMs === "number" ? ` (${error.timeoutMs} ms)` : ""}`,
    unreachable: "the service could not be reached: check the provider's base_url and the network",
    server_error: `the service failed${status}: try again later`,
    rate_limited: `the service asked to slow down${status}`,
    booking_outcome_unknown: "the booking's outcome is unknown: it is kept and looked up again later",
  }
  return refusals[code]
}

/** The service's own code and message when the body is a JSON error, else the body text, shortened. */
function refusalReason(body: string | undefined): string {
  const text = body?.trim()
  if (!text) {
    return ""
  }
  try {
    const parsed: unknown = JSON.parse(text)
    const inner = parsed && typeof parsed === "object" ? (parsed as { error?: unknown }).error : undefined
    const source =
      inner && typeof inner === "object" ? (inner as Record<string, unknown>) : (parsed as Record<string, unknown>)
    const code = typeof source?.code === "string" ? source.code : undefined
    const message = typeof source?.message === "string" ? source.message : typeof inner === "string" ? inner : undefined
    if (code || message) {
      return shorten([code, message].filter(Boolean).join(": "))
    }
  } catch {
    // Not JSON: the text itself is the reason.
  }
  return shorten(text.replace(/\s+/g, " "))
}

/** Cleaned again: a JSON body's escapes (`\\u202E`) only become characters once parsed. */
function shorten(text: string, max = 200): string {
  return cleanText(text, max + 1)
}
