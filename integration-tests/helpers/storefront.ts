/** Store API calls as a storefront makes them: with the publishable key, answers kept even when not 2xx. */
import type { AxiosInstance, AxiosResponse } from "axios"

export interface ShopperAddress {
  first_name: string
  last_name: string
  phone?: string | null
  address_1: string
  city: string
  postal_code: string
  country_code: string
}

export const londonShopper: ShopperAddress = {
  first_name: "Ada",
  last_name: "Lovelace",
  phone: "07911 123456",
  address_1: "10 Downing Street",
  city: "London",
  postal_code: "SW1A 2AA",
  country_code: "gb",
}

export class Storefront {
  constructor(
    private readonly api: AxiosInstance,
    private readonly publishableKey: string
  ) {}

  private get config() {
    return { headers: { "x-publishable-api-key": this.publishableKey }, validateStatus: () => true }
  }

  get<T = Record<string, unknown>>(path: string): Promise<AxiosResponse<T>> {
    return this.api.get(path, this.config)
  }

  post<T = Record<string, unknown>>(path: string, body: unknown): Promise<AxiosResponse<T>> {
    return this.api.post(path, body, this.config)
  }

  async createCart(input: {
    region_id: string
    items: { variant_id: string; quantity: number }[]
    shipping_address?: ShopperAddress
    email?: string
    /** The shopper's language (BCP 47): Medusa keeps it as the order's `locale`. */
    locale?: string
  }): Promise<{ id: string; items: { id: string; quantity: number }[] }> {
    const response = await this.post<{ cart: { id: string; items: { id: string; quantity: number }[] } }>(
      "/store/carts",
      input
    )
    if (response.status !== 200) {
      throw new Error(`creating a cart answered ${response.status}: ${JSON.stringify(response.data)}`)
    }
    return response.data.cart
  }
}

/** Pays with Medusa's system provider and completes the cart, as a storefront does. Returns the order. */
export async function placeOrder(shop: Storefront, cartId: string): Promise<{ id: string; display_id: number }> {
  const collection = await shop.post<{ payment_collection: { id: string } }>("/store/payment-collections", {
    cart_id: cartId,
  })
  if (collection.status !== 200) {
    throw new Error(`payment collection answered ${collection.status}: ${JSON.stringify(collection.data)}`)
  }
  const session = await shop.post(
    `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
    {
      provider_id: "pp_system_default",
    }
  )
  if (session.status !== 200) {
    throw new Error(`payment session answered ${session.status}: ${JSON.stringify(session.data)}`)
  }
  const completed = await shop.post<{ type: string; order: { id: string; display_id: number } }>(
    `/store/carts/${cartId}/complete`,
    {}
  )
  if (completed.status !== 200 || completed.data.type !== "order") {
    throw new Error(`completing the cart answered ${completed.status}: ${JSON.stringify(completed.data)}`)
  }
  return completed.data.order
}
