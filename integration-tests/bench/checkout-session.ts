/**
 * One shopper's whole checkout through Medusa's store API, as a storefront sends it (issue 42): the capacity
 * benchmarks run it open loop, on the Jest app and on the production build.
 */
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import { type LoadClient, type Recorder, processCpuMs, timed } from "./open-loop"

/** The requests of one checkout. */
export const CHECKOUT_REQUESTS = 7

export type CheckoutKind = "lastmile" | "manual"

export interface CheckoutShop {
  client: LoadClient
  regionId: string
  variantId: string
  /** The flat-rate option of Medusa's manual provider in the same store. */
  manualOptionId: string
  address: object
}

interface CartAnswer {
  cart: { id: string }
}

/**
 * The cart, the address, the delivery step, the choice, the payment session with the system provider, the order. The
 * first request is timed from the shopper's scheduled arrival, each next one from when the shopper sent it (after the
 * answer before); a failure ends the session, its rest counted failed. With `cpu`, each request's CPU (read by
 * `cpu.meter`) is added to `cpu.byKind`. Resolves with the order's id.
 */
export const checkoutSession =
  (shop: CheckoutShop, kind: CheckoutKind, cpu?: { byKind: Map<string, number>; meter?: () => number }) =>
  async (since: number, record: Recorder): Promise<string | undefined> => {
    const { client } = shop
    const meter = cpu?.meter ?? processCpuMs
    let sent = 0
    const step = async <T>(
      name: string,
      send: () => ReturnType<LoadClient["request"]>,
      accept?: (json: T) => boolean
    ): Promise<T | undefined> => {
      const at = sent === 0 ? since : performance.now()
      sent++
      const before = cpu ? meter() : 0
      const answer = await timed<T>(record, at, send, accept, name)
      if (cpu) {
        cpu.byKind.set(name, (cpu.byKind.get(name) ?? 0) + meter() - before)
      }
      if (answer === undefined) {
        record.unsent(CHECKOUT_REQUESTS - sent)
      }
      return answer
    }
    const created = await step<CartAnswer>("cart", () =>
      client.request("POST", "/store/carts", {
        region_id: shop.regionId,
        items: [{ variant_id: shop.variantId, quantity: 1 }],
      })
    )
    if (!created) {
      return undefined
    }
    const cartId = created.cart.id
    const addressed = await step<CartAnswer>("address", () =>
      client.request("POST", `/store/carts/${cartId}`, {
        email: "ada@example.com",
        shipping_address: shop.address,
        billing_address: shop.address,
      })
    )
    if (!addressed) {
      return undefined
    }
    let choice: { option_id: string; data?: Record<string, unknown> } | undefined
    if (kind === "lastmile") {
      const rates = await step<LastmileRatesResponse>(
        "delivery step",
        () => client.request("GET", `/store/lastmile/rates?cart_id=${cartId}`),
        (r) => r.rates.some((o) => o.type === "delivery" && o.available)
      )
      const delivery = rates?.rates.find((o) => o.type === "delivery" && o.available)
      const rate = delivery?.rates.find((r) => r.available)
      choice = delivery && { option_id: delivery.shipping_option_id, data: rate ? { rate_code: rate.rate_code } : {} }
    } else {
      const listed = await step<{ shipping_options: { id: string }[] }>(
        "delivery step",
        () => client.request("GET", `/store/shipping-options?cart_id=${cartId}`),
        (l) => l.shipping_options.some((o) => o.id === shop.manualOptionId)
      )
      choice = listed && { option_id: shop.manualOptionId }
    }
    if (!choice) {
      return undefined
    }
    const fields = encodeURIComponent("+shipping_methods.data,+shipping_methods.name")
    const chosen = await step<CartAnswer>("choice", () =>
      client.request("POST", `/store/carts/${cartId}/shipping-methods?fields=${fields}`, choice)
    )
    if (!chosen) {
      return undefined
    }
    const collection = await step<{ payment_collection: { id: string } }>("payment collection", () =>
      client.request("POST", "/store/payment-collections", { cart_id: cartId })
    )
    if (!collection) {
      return undefined
    }
    const session = await step("payment session", () =>
      client.request("POST", `/store/payment-collections/${collection.payment_collection.id}/payment-sessions`, {
        provider_id: "pp_system_default",
      })
    )
    if (!session) {
      return undefined
    }
    const completed = await step<{ type: string; order?: { id: string } }>(
      "complete",
      () => client.request("POST", `/store/carts/${cartId}/complete`, {}),
      (c) => c.type === "order" && c.order !== undefined
    )
    if (completed?.order) {
      record.count("orders")
      return completed.order.id
    }
    return undefined
  }

/** A recorder that keeps nothing: warm-up sessions. */
export const ignoredRecorder: Recorder = { sample: () => undefined, unsent: () => undefined, count: () => undefined }
