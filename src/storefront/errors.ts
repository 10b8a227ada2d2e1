/**
 * One error for everything the helpers' requests can fail with, so a
 * storefront shows `message` without knowing js-sdk's classes: Medusa answers
 * a refused choice with 400 and the plugin's sentence for the shopper ("Enter
 * a phone number so the courier can reach you."), which js-sdk's `FetchError`
 * carries as its `message`.
 */

/** Shown when no answer came back at all (offline, DNS, CORS): the runtime's own message means nothing to a shopper. */
export const UNREACHABLE_MESSAGE = "The store could not be reached. Please check your connection and try again."

export class LastmileStorefrontError extends Error {
  /** The HTTP status Medusa answered with; null when no answer came back. */
  readonly status: number | null

  constructor(message: string, status: number | null, options?: { cause?: unknown }) {
    super(message, options)
    this.name = "LastmileStorefrontError"
    this.status = status
  }

  /**
   * True when the shopper can act on `message` (a 4xx: a missing phone number,
   * a rate no longer offered); false for an outage, where trying again is the
   * only advice.
   */
  get shopperCanFix(): boolean {
    return this.status !== null && this.status >= 400 && this.status < 500 && this.status !== 429
  }
}

/** js-sdk's `FetchError` (or anything thrown by `sdk.client.fetch`) as a LastmileStorefrontError. */
export function toStorefrontError(error: unknown): LastmileStorefrontError {
  if (error instanceof LastmileStorefrontError) {
    return error
  }
  // js-sdk's FetchError is an Error with a numeric `status`; it is read by shape so this entry never loads js-sdk.
  if (error instanceof Error && "status" in error && typeof error.status === "number") {
    return new LastmileStorefrontError(error.message || `Request failed (${error.status}).`, error.status, {
      cause: error,
    })
  }
  return new LastmileStorefrontError(UNREACHABLE_MESSAGE, null, { cause: error })
}
