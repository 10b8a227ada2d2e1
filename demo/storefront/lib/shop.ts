/**
 * The page's requests: Medusa's store API through @medusajs/js-sdk, and the lastmile delivery step, choice and tracking
 * through the storefront package over the same sdk instance.
 */
import Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import {
  type LastmileChosenRef,
  type LastmileDeliveryStep,
  type LastmileOrderTracking,
  type LastmilePosition,
  type LastmileStorefront,
  createLastmileStorefront,
  isLastmileReturnOption,
  toDeliveryStep,
} from "medusa-plugin-lastmile-storefront"
import type { DemoConfig } from "./demo-config"
import { CheckoutRefusal } from "./messages"
import { type ReturnOffer, toReturnOffer } from "./returns"
import { type ShopperDetails, toCartAddress } from "./shopper"

/** Windows and prices as a London shopper reads them. */
export const DISPLAY = { locale: "en-GB", timeZone: "Europe/London" }

/** The cart with its shipping methods' data, so the delivery step can tell which rate it holds. */
const CART_QUERY = { fields: "+shipping_methods.data,+shipping_methods.name" }

/** Medusa's system payment provider: authorises without a card, for demos and tests. */
const PAYMENT_PROVIDER_ID = "pp_system_default"

/** The order with the cart it was placed from: the store API lists return options by cart. */
const RETURN_ORDER_QUERY = { fields: "+cart.id" }

export type Cart = HttpTypes.StoreCart
export type Order = HttpTypes.StoreOrder
export type Product = HttpTypes.StoreProduct

export class Shop {
  readonly sdk: Medusa
  readonly lastmile: LastmileStorefront
  readonly regionId: string

  constructor(config: DemoConfig) {
    this.sdk = new Medusa({ baseUrl: config.medusaUrl, publishableKey: config.publishableKey })
    this.lastmile = createLastmileStorefront(this.sdk)
    this.regionId = config.regionId
  }

  /** The store's products with their price in the region. */
  async listProducts(): Promise<Product[]> {
    const { products } = await this.sdk.store.product.list({
      region_id: this.regionId,
      fields: "id,title,*variants.calculated_price,+variants.sku",
      order: "title",
    })
    return products
  }

  /** One more of the variant: a new cart for the first item. */
  async addToCart(cart: Cart | null, variantId: string): Promise<Cart> {
    const item = { variant_id: variantId, quantity: 1 }
    if (!cart) {
      const created = await this.sdk.store.cart.create({ region_id: this.regionId, items: [item] }, CART_QUERY)
      return created.cart
    }
    return (await this.sdk.store.cart.createLineItem(cart.id, item, CART_QUERY)).cart
  }

  /** The cart again, as the server holds it now (a price kept or lost through an outage shows here). */
  async retrieveCart(cartId: string): Promise<Cart> {
    return (await this.sdk.store.cart.retrieve(cartId, CART_QUERY)).cart
  }

  /** The shopper's email, and their address for shipping and billing. */
  async saveDetails(cartId: string, details: ShopperDetails): Promise<Cart> {
    const address = toCartAddress(details)
    const { cart } = await this.sdk.store.cart.update(
      cartId,
      { email: details.email.trim(), shipping_address: address, billing_address: address },
      CART_QUERY
    )
    return cart
  }

  /**
   * Every lastmile option of the cart from one `GET /store/lastmile/rates`, as the delivery step shows them; the
   * stores nearest `near` first (the shopper's position, sent rounded to about 100 m), else by their postcode.
   */
  loadDeliveryStep(cart: Cart, near: LastmilePosition | null = null): Promise<LastmileDeliveryStep> {
    return this.lastmile.loadDeliveryStep(cart.id, { cart, ...DISPLAY }, { near })
  }

  /**
   * One click: the rate or store on the cart (a delivery with the shopper's note to the courier); the step re-read so
   * the choice shows as the cart holds it, the stores still nearest `near`.
   */
  async choose(
    cartId: string,
    choice: LastmileChosenRef,
    near: LastmilePosition | null = null
  ): Promise<{ cart: Cart; step: LastmileDeliveryStep }> {
    const cart = await this.lastmile.choose<Cart>(cartId, choice)
    const step = toDeliveryStep(await this.lastmile.listRates(cartId, { near }), { cart, ...DISPLAY })
    return { cart, step }
  }

  /** Pays with the system provider and completes the cart: the order, or Medusa's reason why not. */
  async placeOrder(cart: Cart): Promise<Order> {
    await this.sdk.store.payment.initiatePaymentSession(cart, { provider_id: PAYMENT_PROVIDER_ID })
    const completed = await this.sdk.store.cart.complete(cart.id)
    if (completed.type === "cart") {
      throw new CheckoutRefusal(completed.error.message)
    }
    return completed.order
  }

  retrieveTracking(orderId: string): Promise<LastmileOrderTracking | null> {
    return this.lastmile.retrieveTracking(orderId)
  }

  /**
   * What the shopper may send back, and the lastmile return option to send it
   * with: the order read again (its items' fulfilled and returned quantities),
   * and the return options of the cart it was placed from.
   */
  async loadReturnOffer(orderId: string): Promise<ReturnOffer> {
    const { order } = await this.sdk.store.order.retrieve(orderId, RETURN_ORDER_QUERY)
    const cartId = (order as Order & { cart?: { id: string } | null }).cart?.id
    const options = cartId
      ? (await this.sdk.store.fulfillment.listCartOptions({ cart_id: cartId, is_return: true })).shipping_options
      : []
    return toReturnOffer(order, options.find(isLastmileReturnOption)?.id ?? null)
  }

  /**
   * `POST /store/returns` (no sign-in: the order id is the key) with the
   * lastmile return option and no location: Medusa takes the option's. The
   * plugin books the collection when Medusa emits `order.return_requested`.
   */
  async requestReturn(orderId: string, optionId: string, itemId: string): Promise<HttpTypes.StoreReturn> {
    const body: HttpTypes.StoreCreateReturn = {
      order_id: orderId,
      items: [{ id: itemId, quantity: 1 }],
      return_shipping: { option_id: optionId },
    }
    const answer = await this.sdk.client.fetch<HttpTypes.StoreReturnResponse>("/store/returns", {
      method: "POST",
      body,
    })
    return answer.return
  }
}
