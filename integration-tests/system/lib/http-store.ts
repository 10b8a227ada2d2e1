/**
 * A merchant's store set up, and a shopper's checkout, through Medusa's HTTP API only, as the README's install steps
 * describe them: for apps whose process the test does not own.
 */
import { londonShopper } from "../../helpers/storefront"
import type { LastmileRatesResponse } from "../../../src/lib/checkout/option-rate"
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

/** One `curl` of a docs block: its method, path and JSON body, `$VARIABLES` filled in from `vars`. */
export interface DocCall {
  method: string
  path: string
  body?: Json
}

/** The `curl http://localhost:9000…` calls of a docs block, in order (a `-d` may follow on the next line). */
export function docCurlCalls(block: string, vars: Record<string, string>): DocCall[] {
  const fill = (text: string) =>
    text.replace(/'?\$([A-Z_]+)'?/g, (_whole, name: string) => {
      if (!(name in vars)) {
        throw new Error(`the docs' example uses $${name}, which the test does not know`)
      }
      return vars[name]
    })
  const lines = block.split("\n")
  const calls: DocCall[] = []
  lines.forEach((line, i) => {
    const curl = line.match(/^curl (?:-X (\w+) )?http:\/\/localhost:9000(\S+)/)
    if (!curl) {
      return
    }
    const data = (line.match(/-d '(.*)'\s*$/) ?? lines[i + 1]?.match(/^\s*-d '(.*)'\s*$/))?.[1]
    calls.push({
      method: curl[1] ?? "GET",
      path: fill(curl[2]),
      body: data === undefined ? undefined : (JSON.parse(fill(data)) as Json),
    })
  })
  return calls
}

export interface HttpStore {
  publishableKey: string
  regionId: string
  salesChannelId: string
  variantIds: Record<string, string>
  locationIds: string[]
  setup: { created: string[]; unchanged: string[]; skipped?: unknown[] }
}

/** The service locations the system tests map: the warehouse (delivery is dispatched from it) and one store. */
const MAPPED = ["warehouse", "store-covent-garden"]

/**
 * Region, sales channel and key, then docs/admin-api.md's mapping as written:
 * a stock location made from each of the service's warehouse and Covent
 * Garden store, products stocked there, and the one-click setup with the
 * sales channel (which also creates the return option).
 */
export async function setUpStoreOverHttp(admin: MedusaHttp, skus: string[]): Promise<HttpStore> {
  const mapping = readmeBlock(
    "# the service's fulfilment locations (locations[].fulfilment_location_id, .external_location_id, .stock_location)"
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

  const calls = (vars: Record<string, string>) => docCurlCalls(mapping, vars)
  const [list] = calls({ FULFILMENT_LOCATION_ID: "", STOCK_LOCATION_ID: "", SALES_CHANNEL_ID: "" })
  const overview = await admin.request<{
    locations: { fulfilment_location_id: string; external_location_id: string }[]
  }>(list.method, list.path)
  const locationIds: string[] = []
  for (const externalId of MAPPED) {
    const service = overview.locations.find((l) => l.external_location_id === externalId)
    if (!service) {
      throw new Error(`the service lists no ${externalId}`)
    }
    const create = calls({
      FULFILMENT_LOCATION_ID: service.fulfilment_location_id,
      STOCK_LOCATION_ID: "",
      SALES_CHANNEL_ID: salesChannelId,
    }).find((c) => c.path.endsWith("/stock-location"))
    if (!create) {
      throw new Error("docs/admin-api.md no longer makes a stock location from a service location")
    }
    const made = await admin.request<{ stock_location: { id: string } | null }>(create.method, create.path, create.body)
    if (!made.stock_location) {
      throw new Error(`no stock location was made from ${externalId}`)
    }
    locationIds.push(made.stock_location.id)
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

  const setupCall = calls({ FULFILMENT_LOCATION_ID: "", STOCK_LOCATION_ID: "", SALES_CHANNEL_ID: salesChannelId }).find(
    (c) => c.path === "/admin/lastmile/setup"
  )
  if (!setupCall) {
    throw new Error("docs/admin-api.md's mapping example no longer runs the one-click setup")
  }
  const setup = await admin.request<HttpStore["setup"]>(setupCall.method, setupCall.path, setupCall.body)
  if (!setup.created.some((name) => /return/i.test(name))) {
    throw new Error(`the one-click setup made no return option: ${JSON.stringify(setup)}`)
  }
  return { publishableKey: api_key.token, regionId: region.id, salesChannelId, variantIds, locationIds, setup }
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
