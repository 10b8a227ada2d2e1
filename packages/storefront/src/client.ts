/**
 * The storefront's requests over the app's own js-sdk instance: rates, a choice, tracking and the booking, each in one
 * request; every failure a LastmileStorefrontError whose `reason` a storefront decides by.
 */
import type { LastmileChoice, LastmileChoiceRef } from "./choices.js"
import type { LastmileOrderBookingResponse, LastmileRatesResponse } from "./contract.js"
import { type LastmileDeliveryStep, type LastmileDeliveryStepOptions, toDeliveryStep } from "./delivery-step.js"
import {
  type LastmileFailureReason,
  LastmileStorefrontError,
  UNAVAILABLE_MESSAGE,
  toStorefrontError,
} from "./errors.js"
import { type LastmilePosition, nearParam } from "./position.js"
import { type LastmileOrderTracking, readOrderTracking } from "./tracking.js"
import type {
  LastmileCartLike,
  LastmileFetchInit,
  LastmileOrderLike,
  LastmileRequestOptions,
  LastmileSdk,
} from "./types.js"
import { type LastmileWaitOptions, type LastmileWaitResult, waitForTracking } from "./wait.js"

/** The cart a choice answers with carries its methods' data, so the step can tell which rate it holds. */
const CHOSEN_CART_FIELDS = "+shipping_methods.data,+shipping_methods.name"

/**
 * What the tracking reads of an order. `GET /store/orders/:id` answers with
 * the fulfillments' own fields (Medusa 2.21 adds `fulfillments.*` itself), but
 * their labels are not among its allowed fields: the tracking comes from the
 * fulfillment's data.
 */
const TRACKING_ORDER_FIELDS = "id,*shipping_methods,*fulfillments"

const RATES_ROUTE = "/store/lastmile/rates"

/** Where the helpers' faults are logged: `console` unless the app passes its own, or null to stay silent. */
export interface LastmileLogger {
  error(message: string): void
}

export interface LastmileStorefrontOptions {
  /** Default `console`. Each fault (a route missing, a refused key, a server error, …) is logged once per request kind. */
  logger?: LastmileLogger | null
}

/** The rates' request: the request options, and where the shopper is, for the nearest stores first. */
export interface LastmileRatesOptions extends LastmileRequestOptions {
  /**
   * The shopper's position (`requestShopperPosition()`), sent rounded to 3 decimals (about 100 m) as `near`: the
   * stores then come nearest first, each with its distance where its position is known. Left out (or not a position
   * on Earth), stores come in order of the shopper's postcode.
   */
  near?: LastmilePosition | null
}

export interface LastmileStorefront {
  /**
   * `GET /store/lastmile/rates?cart_id=…` (`&near=51.461,-0.116` with `near`): every lastmile option of the cart,
   * priced from one quote, the stores nearest first.
   */
  listRates(cartId: string, options?: LastmileRatesOptions): Promise<LastmileRatesResponse>
  /**
   * The rates, as the delivery step shows them (see `toDeliveryStep`). A
   * step with nothing in it means the cart has no lastmile option; a failure
   * rejects with its `reason` instead.
   */
  loadDeliveryStep(
    cartId: string,
    step?: LastmileDeliveryStepOptions,
    options?: LastmileRatesOptions
  ): Promise<LastmileDeliveryStep>
  /**
   * Puts a choice of the step on the cart: `POST /store/carts/:id/shipping-methods`
   * with `{ option_id, data: { rate_code } }` for a delivery rate, `{ option_id }`
   * for a store (its one rate) or an option priced by its rule. A delivery
   * carries the shopper's note to the courier as `data.delivery_note` when
   * `deliveryNote` is given (an empty one removes it; left out, the cart's note
   * is kept). Resolves with the cart (its methods' `data` included); a refusal
   * (400) rejects with the plugin's sentence for the shopper (`reason: "refused"`).
   */
  choose<TCart extends LastmileCartLike = LastmileCartLike>(
    cartId: string,
    choice: LastmileChosenRef,
    options?: LastmileRequestOptions
  ): Promise<TCart>
  /** `GET /store/lastmile/orders/:id/booking`: where the booking of the order's delivery stands. */
  retrieveBooking(orderId: string, options?: LastmileRequestOptions): Promise<LastmileOrderBookingResponse>
  /**
   * `GET /store/orders/:id`, read as the order's lastmile tracking (null when
   * the order is not lastmile's); until it is delivered or canceled, the
   * booking's answer too, so the page can say whether it is under way or
   * waits for the shop, and once booked, its step (out for delivery, ready).
   */
  retrieveTracking(orderId: string, options?: LastmileRequestOptions): Promise<LastmileOrderTracking | null>
  /**
   * Reads the tracking again, with a growing pause, until it is booked (or
   * waits for the shop), the signal aborts, or the page's wait times out:
   * see `waitForTracking`.
   */
  waitForBooking(
    orderId: string,
    options?: LastmileWaitOptions & { request?: LastmileRequestOptions }
  ): Promise<LastmileWaitResult>
}

/**
 * Helpers over the app's js-sdk: `createLastmileStorefront(sdk)` where
 * `sdk = new Medusa({ baseUrl, publishableKey })`.
 */
export function createLastmileStorefront(
  sdk: LastmileSdk,
  settings: LastmileStorefrontOptions = {}
): LastmileStorefront {
  const logger = settings.logger === undefined ? defaultLogger() : settings.logger
  const logged = new Set<string>()

  /** The request, its failure told apart and logged once per kind of request and reason. */
  const request = async <T>(kind: string, path: string, init: LastmileFetchInit): Promise<T> => {
    try {
      return await sdk.client.fetch<T>(path, init)
    } catch (thrown) {
      const error = await classify(sdk, toStorefrontError(thrown), `${init.method} ${path}`)
      const key = `${kind}:${error.reason}`
      if (error.reason !== "refused" && !logged.has(key)) {
        logged.add(key)
        logger?.error(`medusa-plugin-lastmile-storefront: ${error.detail}`)
      }
      throw error
    }
  }
  // Prices and tracking change by the minute: never from a cache unless the caller asks.
  const fresh = (options: LastmileRequestOptions = {}): LastmileRequestOptions => ({ cache: "no-store", ...options })

  const listRates: LastmileStorefront["listRates"] = (cartId, options = {}) => {
    const { near, ...rest } = options
    const position = nearParam(near)
    return request<LastmileRatesResponse>("rates", RATES_ROUTE, {
      ...fresh(rest),
      method: "GET",
      query: position ? { cart_id: cartId, near: position } : { cart_id: cartId },
    })
  }

  const retrieveBooking: LastmileStorefront["retrieveBooking"] = (orderId, options) =>
    request<LastmileOrderBookingResponse>("booking", `/store/lastmile/orders/${encodeURIComponent(orderId)}/booking`, {
      ...fresh(options),
      method: "GET",
    })

  const retrieveTracking: LastmileStorefront["retrieveTracking"] = async (orderId, options) => {
    const { order } = await request<{ order: LastmileOrderLike }>(
      "order",
      `/store/orders/${encodeURIComponent(orderId)}`,
      {
        ...fresh(options),
        method: "GET",
        query: { fields: TRACKING_ORDER_FIELDS },
      }
    )
    const tracking = readOrderTracking(order)
    if (!tracking || tracking.status === "delivered" || tracking.status === "canceled") {
      return tracking
    }
    // Where the booking stands (pending) or its step (booked, shipped) is read only while it matters; without it
    // the tracking still reads as pending, or as booked or shipped.
    const booking = await retrieveBooking(orderId, options).catch((error: unknown) => {
      if (error instanceof LastmileStorefrontError && (error.transient || error.reason === "route_missing")) {
        return null
      }
      throw error
    })
    return readOrderTracking(order, booking)
  }

  return {
    listRates,
    async loadDeliveryStep(cartId, step, options) {
      return toDeliveryStep(await listRates(cartId, options), step)
    },
    async choose<TCart extends LastmileCartLike = LastmileCartLike>(
      cartId: string,
      choice: LastmileChosenRef,
      options?: LastmileRequestOptions
    ): Promise<TCart> {
      const data = choiceData(choice)
      const body = data ? { option_id: choice.shippingOptionId, data } : { option_id: choice.shippingOptionId }
      const { cart } = await request<{ cart: TCart }>(
        "choose",
        `/store/carts/${encodeURIComponent(cartId)}/shipping-methods`,
        { ...options, method: "POST", query: { fields: CHOSEN_CART_FIELDS }, body }
      )
      return cart
    },
    retrieveBooking,
    retrieveTracking,
    waitForBooking(orderId, options = {}) {
      const { request: requestOptions, ...wait } = options
      return waitForTracking(() => retrieveTracking(orderId, requestOptions), wait)
    },
  }
}

/**
 * A choice as `choose` sends it: a choice of the step (or its reference), and for a delivery the shopper's note to the
 * courier. A store's choice carries no note: a collection has no courier.
 */
export type LastmileChosenRef = (LastmileChoiceRef | LastmileChoice) & { deliveryNote?: string | null }

function choiceData(choice: LastmileChosenRef): Record<string, unknown> | null {
  const data: Record<string, unknown> = {}
  if (choice.rateCode !== null) {
    data.rate_code = choice.rateCode
  }
  const collection = "kind" in choice && choice.kind === "collection"
  if (choice.deliveryNote !== undefined && !collection) {
    data.delivery_note = choice.deliveryNote ?? ""
  }
  return Object.keys(data).length ? data : null
}

/**
 * What a 404 or a 4xx means, by status alone (never by the message's text):
 * a 404 of the plugin's route is a missing route when the rates route itself
 * answers 404 (Medusa checks the publishable key first, so the key is good);
 * a 4xx is a refused key when a plain store read is refused too.
 */
async function classify(
  sdk: LastmileSdk,
  error: LastmileStorefrontError,
  what: string
): Promise<LastmileStorefrontError> {
  const reason = error.reason
  if (reason === "not_found" && what.includes("/store/lastmile/")) {
    const status = await probe(sdk, RATES_ROUTE)
    if (status === 404) {
      return failure(
        error,
        "route_missing",
        `${what} answered 404: the backend has no lastmile routes. Is medusa-plugin-lastmile in its medusa-config.ts \`plugins\`, at the version of these helpers, and was the backend restarted?`
      )
    }
  }
  if (reason === "refused" && error.status !== null && error.status !== 404) {
    const status = await probe(sdk, "/store/regions", { limit: "1", fields: "id" })
    if (status !== null && status >= 400 && status < 500 && status !== 404 && status !== 429) {
      return failure(
        error,
        "publishable_key",
        `${what} answered ${error.status}, and so does a plain store read (${status}): Medusa refuses the publishable API key. Check the key the sdk is given (a store's key, not a secret one, linked to the sales channel) and that it is not revoked.`
      )
    }
  }
  if (reason === "not_found") {
    return failure(error, "not_found", `${what} answered ${error.detail}`)
  }
  if (reason === "server_error" || reason === "rate_limited") {
    return failure(error, reason, `${what} answered ${error.detail.replace(/\.$/, "")}: see the backend's log.`)
  }
  if (reason === "unreachable") {
    return failure(
      error,
      reason,
      `${what}: ${error.detail}. Is the backend's URL right, and does its STORE_CORS list this storefront's origin?`
    )
  }
  return error
}

function failure(
  error: LastmileStorefrontError,
  reason: LastmileFailureReason,
  detail: string
): LastmileStorefrontError {
  const message = reason === "unreachable" ? error.message : UNAVAILABLE_MESSAGE
  return new LastmileStorefrontError(message, error.status, { cause: error.cause, reason, detail })
}

/** The status a GET answers (null when none came back): a probe to classify a failure, never shown. */
async function probe(sdk: LastmileSdk, path: string, query?: Record<string, string>): Promise<number | null> {
  try {
    await sdk.client.fetch<unknown>(path, { method: "GET", query, cache: "no-store" })
    return 200
  } catch (error) {
    return toStorefrontError(error).status
  }
}

function defaultLogger(): LastmileLogger | null {
  // The app's console: the browser's, or the server's log on Next.js. No console at all, no log.
  return typeof console === "undefined" ? null : console
}
