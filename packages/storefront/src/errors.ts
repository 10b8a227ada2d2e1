/**
 * One error for every failure of the helpers' requests: `message` a shopper can read (the plugin's own sentence for a
 * refused choice), `reason` to decide by, `detail` for the developer.
 */

/**
 * Why a request failed:
 * - `refused`: Medusa refused the request with words for the shopper (a detail missing, a rate no longer offered);
 * - `not_found`: the cart or the order does not exist (any more);
 * - `route_missing`: the backend has no such route: medusa-plugin-lastmile is not in its `medusa-config.ts`,
 *   or is older than these helpers;
 * - `publishable_key`: Medusa refused the publishable API key (missing, unknown or revoked);
 * - `rate_limited`: 429;
 * - `server_error`: the backend failed (5xx);
 * - `unreachable`: no answer came back (offline, DNS, CORS).
 */
export type LastmileFailureReason =
  "refused" | "not_found" | "route_missing" | "publishable_key" | "rate_limited" | "server_error" | "unreachable"

/** Shown when no answer came back at all (offline, DNS, CORS): the runtime's own message means nothing to a shopper. */
export const UNREACHABLE_MESSAGE = "The store could not be reached. Please check your connection and try again."
/** Shown for a fault of the backend or of its set-up: the shopper can only try again later. */
export const UNAVAILABLE_MESSAGE = "This part of the checkout is unavailable right now. Please try again in a moment."

export class LastmileStorefrontError extends Error {
  /** The HTTP status Medusa answered with; null when no answer came back. */
  readonly status: number | null
  readonly reason: LastmileFailureReason
  /** For the developer: what failed and what to check (logged once by the helpers). Never shown to a shopper. */
  readonly detail: string

  constructor(
    message: string,
    status: number | null,
    options: { cause?: unknown; reason?: LastmileFailureReason; detail?: string } = {}
  ) {
    super(message, { cause: options.cause })
    this.name = "LastmileStorefrontError"
    this.status = status
    this.reason = options.reason ?? reasonOfStatus(status)
    this.detail = options.detail ?? message
  }

  /**
   * True when the shopper can act on `message` (a missing phone number, a
   * rate no longer offered); false for an outage or a fault of the set-up,
   * where trying again later is the only advice.
   */
  get shopperCanFix(): boolean {
    return this.reason === "refused"
  }

  /** True for a failure that may pass by itself (the backend busy, down or out of reach): worth trying again. */
  get transient(): boolean {
    return this.reason === "server_error" || this.reason === "unreachable" || this.reason === "rate_limited"
  }
}

/** The reason a status says on its own; the client tells a 404 or a 4xx apart further (a route missing, the key). */
export function reasonOfStatus(status: number | null): LastmileFailureReason {
  if (status === null) {
    return "unreachable"
  }
  if (status === 429) {
    return "rate_limited"
  }
  if (status >= 500) {
    return "server_error"
  }
  if (status === 404) {
    return "not_found"
  }
  return "refused"
}

/** js-sdk's `FetchError` (or anything thrown by `sdk.client.fetch`) as a LastmileStorefrontError. */
export function toStorefrontError(error: unknown): LastmileStorefrontError {
  if (error instanceof LastmileStorefrontError) {
    return error
  }
  // js-sdk's FetchError is an Error with a numeric `status`; it is read by shape so this package never loads js-sdk.
  if (error instanceof Error && "status" in error && typeof error.status === "number") {
    const reason = reasonOfStatus(error.status)
    const said = error.message || `Request failed (${error.status}).`
    return new LastmileStorefrontError(reason === "refused" ? said : UNAVAILABLE_MESSAGE, error.status, {
      cause: error,
      reason,
      detail: `${error.status}: ${said}`,
    })
  }
  return new LastmileStorefrontError(UNREACHABLE_MESSAGE, null, {
    cause: error,
    reason: "unreachable",
    detail: `no answer: ${describe(error)}`,
  })
}

/** An error and its causes, as Node's fetch nests them ("fetch failed" says nothing; its cause does). */
function describe(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) {
    return String(error)
  }
  const code = "code" in error && typeof error.code === "string" ? ` (${error.code})` : ""
  const cause = error.cause !== undefined && depth < 3 ? `: ${describe(error.cause, depth + 1)}` : ""
  return `${error.message}${code}${cause}`
}
