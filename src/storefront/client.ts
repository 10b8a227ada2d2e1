/**
 * The storefront's requests, over the app's own js-sdk instance (so its
 * publishable key, base URL and auth come along): the cart's lastmile rates
 * in one request, a choice in one request, an order's tracking in one
 * request. Every failure is a LastmileStorefrontError whose `message` can be
 * shown.
 */
import { type LastmileDeliveryStep, type LastmileDeliveryStepOptions, toDeliveryStep } from "./delivery-step"
import type { LastmileChoiceRef } from "./delivery-step"
import { toStorefrontError } from "./errors"
import { type LastmileOrderTracking, readOrderTracking } from "./tracking"
import type {
  LastmileCartLike,
  LastmileFetchInit,
  LastmileOrderLike,
  LastmileRatesResponse,
  LastmileRequestOptions,
  LastmileSdk,
} from "./types"

/** The cart a choice answers with carries its methods' data, so the step can tell which rate it holds. */
const CHOSEN_CART_FIELDS = "+shipping_methods.data,+shipping_methods.name"

/**
 * What the tracking reads of an order. `GET /store/orders/:id` answers with
 * the fulfillments' own fields (Medusa 2.21 adds `fulfillments.*` itself), but
 * their labels are not among its allowed fields: the tracking comes from the
 * fulfillment's data.
 */
const TRACKING_ORDER_FIELDS = "id,*shipping_methods,*fulfillments"

export interface LastmileStorefront {
  /** `GET /store/lastmile/rates?cart_id=…`: every lastmile option of the cart, priced from one quote. */
  listRates(cartId: string, options?: LastmileRequestOptions): Promise<LastmileRatesResponse>
  /** The rates, as the delivery step shows them (see `toDeliveryStep`). */
  loadDeliveryStep(
    cartId: string,
    step?: LastmileDeliveryStepOptions,
    options?: LastmileRequestOptions
  ): Promise<LastmileDeliveryStep>
  /**
   * Puts a choice of the step on the cart: `POST /store/carts/:id/shipping-methods`
   * with `{ option_id, data: { rate_code } }` for a delivery rate, `{ option_id }`
   * for a store (its one rate) or an option priced by its rule. Resolves with
   * the cart (its methods' `data` included); a refusal (400) rejects with the
   * plugin's sentence for the shopper.
   */
  choose<TCart extends LastmileCartLike = LastmileCartLike>(
    cartId: string,
    choice: LastmileChoiceRef,
    options?: LastmileRequestOptions
  ): Promise<TCart>
  /** `GET /store/orders/:id`, read as the order's lastmile tracking; null when the order is not lastmile's. */
  retrieveTracking(orderId: string, options?: LastmileRequestOptions): Promise<LastmileOrderTracking | null>
}

/**
 * Helpers over the app's js-sdk: `createLastmileStorefront(sdk)` where
 * `sdk = new Medusa({ baseUrl, publishableKey })`.
 */
export function createLastmileStorefront(sdk: LastmileSdk): LastmileStorefront {
  const request = async <T>(path: string, init: LastmileFetchInit): Promise<T> => {
    try {
      return await sdk.client.fetch<T>(path, init)
    } catch (error) {
      throw toStorefrontError(error)
    }
  }
  // Prices and tracking change by the minute: never from a cache unless the caller asks.
  const fresh = (options: LastmileRequestOptions = {}): LastmileRequestOptions => ({ cache: "no-store", ...options })

  const listRates: LastmileStorefront["listRates"] = (cartId, options) =>
    request<LastmileRatesResponse>("/store/lastmile/rates", {
      ...fresh(options),
      method: "GET",
      query: { cart_id: cartId },
    })

  return {
    listRates,
    async loadDeliveryStep(cartId, step, options) {
      return toDeliveryStep(await listRates(cartId, options), step)
    },
    async choose<TCart extends LastmileCartLike = LastmileCartLike>(
      cartId: string,
      choice: LastmileChoiceRef,
      options?: LastmileRequestOptions
    ): Promise<TCart> {
      const body =
        choice.rateCode === null
          ? { option_id: choice.shippingOptionId }
          : { option_id: choice.shippingOptionId, data: { rate_code: choice.rateCode } }
      const { cart } = await request<{ cart: TCart }>(`/store/carts/${encodeURIComponent(cartId)}/shipping-methods`, {
        ...options,
        method: "POST",
        query: { fields: CHOSEN_CART_FIELDS },
        body,
      })
      return cart
    },
    async retrieveTracking(orderId, options) {
      const { order } = await request<{ order: LastmileOrderLike }>(`/store/orders/${encodeURIComponent(orderId)}`, {
        ...fresh(options),
        method: "GET",
        query: { fields: TRACKING_ORDER_FIELDS },
      })
      return readOrderTracking(order)
    },
  }
}
