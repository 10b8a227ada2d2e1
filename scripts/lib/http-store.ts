/**
 * A merchant's store set up, and a shopper's checkout, through Medusa's HTTP
 * API only, as the README's install steps describe them: for apps whose
 * process the test does not own (the install and cluster tests).
 */
import { londonShopper } from "../../integration-tests/helpers/storefront"
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import { readmeBlock } from "./host-app"

type Json = Record<string, unknown>

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string
  ) {
    super(`${what} answered ${status}: ${body.slice(0, 800)}`)
  }
}

/** JSON over fetch; throws HttpError on a non-2xx answer. */
export class MedusaHttp {
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {}
  ) {}

  with(headers: Record<string, string>): MedusaHttp {
    return new MedusaHttp(this.baseUrl, { ...this.headers, ...headers })
  }

  async request<T = Json>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", ...this.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    if (!response.ok) {
      throw new HttpError(response.status, text, `${method} ${path}`)
    }
    return (text ? JSON.parse(text) : {}) as T
  }

  get<T = Json>(path: string): Promise<T> {
    return this.request<T>("GET", path)
  }

  post<T = Json>(path: string, body: unknown = {}): Promise<T> {
    return this.request<T>("POST", path, body)
  }
}

export async function adminLogin(baseUrl: string, email: string, password: string): Promise<MedusaHttp> {
  const { token } = await new MedusaHttp(baseUrl).post<{ token: string }>("/auth/user/emailpass", { email, password })
  return new MedusaHttp(baseUrl, { authorization: `Bearer ${token}` })
}

/** The JSON bodies of the README's `curl … <path> … -d '<json>'` examples, in order. */
export function readmeCurlBodies(block: string, path: string): Json[] {
  const lines = block.split("\n")
  const bodies: Json[] = []
  lines.forEach((line, i) => {
    if (line.includes(`localhost:9000${path} `)) {
      const data = lines[i + 1]?.match(/-d '(.*)'\s*$/)
      if (data) {
        bodies.push(JSON.parse(data[1]) as Json)
      }
    }
  })
  return bodies
}

export interface HttpStore {
  publishableKey: string
  regionId: string
  salesChannelId: string
  variantIds: Record<string, string>
  locationIds: string[]
  setup: { created: string[]; unchanged: string[]; skipped?: unknown[] }
}

interface Location {
  id: string
  fulfillment_sets?: { type: string; service_zones: { id: string }[] }[]
}

/**
 * Region, sales channel and key, the README's stock locations (mapped to the
 * simulator), products stocked there, the one-click setup and the README's
 * return option.
 */
export async function setUpStoreOverHttp(admin: MedusaHttp, skus: string[]): Promise<HttpStore> {
  const mapping = readmeBlock(
    "# the simulator's warehouse (delivery is dispatched from it) and its Covent Garden store (click and collect)"
  )
  const { region } = await admin.post<{ region: { id: string } }>("/admin/regions", {
    name: "United Kingdom",
    currency_code: "gbp",
    countries: ["gb"],
    payment_providers: ["pp_system_default"],
  })
  const { sales_channels } = await admin.get<{ sales_channels: { id: string }[] }>("/admin/sales-channels?limit=1")
  const salesChannelId =
    sales_channels[0]?.id ??
    (await admin.post<{ sales_channel: { id: string } }>("/admin/sales-channels", { name: "Webshop" })).sales_channel.id
  const { api_key } = await admin.post<{ api_key: { id: string; token: string } }>("/admin/api-keys", {
    title: "Webshop",
    type: "publishable",
  })
  await admin.post(`/admin/api-keys/${api_key.id}/sales-channels`, { add: [salesChannelId] })

  const locationIds: string[] = []
  for (const body of readmeCurlBodies(mapping, "/admin/stock-locations")) {
    const { stock_location } = await admin.post<{ stock_location: Location }>("/admin/stock-locations", body)
    await admin.post(`/admin/stock-locations/${stock_location.id}/sales-channels`, { add: [salesChannelId] })
    locationIds.push(stock_location.id)
  }
  if (locationIds.length < 2) {
    throw new Error("the README's mapping example should create the warehouse and a store")
  }

  const { shipping_profiles } = await admin.get<{ shipping_profiles: { id: string; type: string }[] }>(
    "/admin/shipping-profiles"
  )
  const profileId = shipping_profiles.find((p) => p.type === "default")?.id ?? shipping_profiles[0]?.id
  const variantIds: Record<string, string> = {}
  for (const sku of skus) {
    const { product } = await admin.post<{ product: { variants: { id: string; sku: string }[] } }>("/admin/products", {
      title: sku,
      status: "published",
      shipping_profile_id: profileId,
      sales_channels: [{ id: salesChannelId }],
      options: [{ title: "Size", values: ["One size"] }],
      variants: [
        {
          title: "One size",
          sku,
          manage_inventory: true,
          options: { Size: "One size" },
          prices: [{ currency_code: "gbp", amount: 20 }],
        },
      ],
    })
    variantIds[sku] = product.variants[0].id
    const { inventory_items } = await admin.get<{ inventory_items: { id: string }[] }>(
      `/admin/inventory-items?sku=${encodeURIComponent(sku)}`
    )
    for (const locationId of locationIds) {
      await admin.post(`/admin/inventory-items/${inventory_items[0].id}/location-levels`, {
        location_id: locationId,
        stocked_quantity: 10_000,
      })
    }
  }

  const setup = await admin.post<HttpStore["setup"]>(readmeSetupPath(mapping))
  await createReturnOption(admin, locationIds[0], profileId)
  return { publishableKey: api_key.token, regionId: region.id, salesChannelId, variantIds, locationIds, setup }
}

function readmeSetupPath(block: string): string {
  const match = block.match(/curl -X POST http:\/\/localhost:9000(\/admin\/lastmile\/setup) /)
  if (!match) {
    throw new Error("the README's mapping example no longer runs the one-click setup")
  }
  return match[1]
}

/** The README's `lastmile-return` example, on the warehouse's shipping zone. */
async function createReturnOption(
  admin: MedusaHttp,
  warehouseId: string,
  profileId: string | undefined
): Promise<void> {
  const block = readmeBlock(
    `curl -X POST http://localhost:9000/admin/shipping-options -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\`
  )
  const { stock_location } = await admin.get<{ stock_location: Location }>(
    `/admin/stock-locations/${warehouseId}?fields=*fulfillment_sets,*fulfillment_sets.service_zones`
  )
  const zone = stock_location.fulfillment_sets?.find((set) => set.type === "shipping")?.service_zones[0]
  if (!zone || !profileId) {
    throw new Error("the one-click setup left the warehouse without a shipping zone")
  }
  const json = block
    .match(/-d '(.*)'\s*$/m)![1]
    .replace("'$SERVICE_ZONE_ID'", zone.id)
    .replace("'$SHIPPING_PROFILE_ID'", profileId)
  await admin.post("/admin/shipping-options", JSON.parse(json))
}

/** A cart with one item and a London address, as a storefront makes it. */
export async function newCart(shop: MedusaHttp, store: HttpStore, variantId: string, email: string): Promise<string> {
  const { cart } = await shop.post<{ cart: { id: string } }>("/store/carts", {
    region_id: store.regionId,
    email,
    shipping_address: londonShopper,
    items: [{ variant_id: variantId, quantity: 1 }],
  })
  return cart.id
}

/** Pays with the system provider and completes the cart; returns the order id. */
export async function placeOrder(shop: MedusaHttp, cartId: string, optionId: string, data?: Json): Promise<string> {
  await shop.post(`/store/carts/${cartId}/shipping-methods`, { option_id: optionId, ...(data ? { data } : {}) })
  const { payment_collection } = await shop.post<{ payment_collection: { id: string } }>("/store/payment-collections", {
    cart_id: cartId,
  })
  await shop.post(`/store/payment-collections/${payment_collection.id}/payment-sessions`, {
    provider_id: "pp_system_default",
  })
  const completed = await shop.post<{ type: string; order?: { id: string } }>(`/store/carts/${cartId}/complete`)
  if (completed.type !== "order" || !completed.order) {
    throw new Error(`completing cart ${cartId} gave ${JSON.stringify(completed).slice(0, 400)}`)
  }
  return completed.order.id
}

/**
 * A delivery order as a shopper places it: a cart, the rates route, the first
 * delivery option offered. `fallback`: its price was the outage fallback.
 */
export async function placeDeliveryOrder(
  shop: MedusaHttp,
  store: HttpStore,
  email: string
): Promise<{ id: string; fallback: boolean }> {
  const cartId = await newCart(shop, store, store.variantIds["DEMO-TEE"], email)
  const { rates } = await shop.get<LastmileRatesResponse>(`/store/lastmile/rates?cart_id=${cartId}`)
  const delivery = rates.find((r) => r.type === "delivery" && r.available)
  if (!delivery) {
    throw new Error(`no delivery offered: ${JSON.stringify(rates).slice(0, 300)}`)
  }
  return { id: await placeOrder(shop, cartId, delivery.shipping_option_id), fallback: delivery.fallback }
}
