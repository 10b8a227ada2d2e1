import { type IncomingMessage, type Server, createServer } from "node:http"
import type { AddressInfo } from "node:net"
import Medusa, { FetchError } from "@medusajs/js-sdk"
import { createLastmileStorefront } from "../client"
import { LastmileStorefrontError, UNREACHABLE_MESSAGE } from "../errors"
import { LIVE_RATES, NOW, PHONE_MISSING, bookedFulfillment, fakeSdk, methodData } from "./fixtures"

describe("createLastmileStorefront", () => {
  it("lists the cart's rates in one uncached request, with the caller's headers", async () => {
    const { sdk, calls } = fakeSdk(() => LIVE_RATES)
    const rates = await createLastmileStorefront(sdk).listRates("cart_1", { headers: { authorization: "Bearer t" } })
    expect(rates).toEqual(LIVE_RATES)
    expect(calls).toEqual([
      {
        path: "/store/lastmile/rates",
        init: {
          method: "GET",
          query: { cart_id: "cart_1" },
          headers: { authorization: "Bearer t" },
          cache: "no-store",
        },
      },
    ])
  })

  it("loads the delivery step from that one request", async () => {
    const { sdk, calls } = fakeSdk(() => LIVE_RATES)
    const step = await createLastmileStorefront(sdk).loadDeliveryStep("cart_1", {
      locale: "en-GB",
      timeZone: "Europe/London",
      now: NOW,
    })
    expect(calls).toHaveLength(1)
    expect(step.delivery.map((c) => c.key)).toEqual(["so_next_day#ND-ECO", "so_next_day#ND-STD"])
    expect(step.collection.map((c) => c.storeName)).toEqual(["Camden"])
  })

  it("chooses a delivery rate with its code as the method's data", async () => {
    const cart = { id: "cart_1", shipping_methods: [{ shipping_option_id: "so_next_day", data: methodData() }] }
    const { sdk, calls } = fakeSdk(() => ({ cart }))
    const chosen = await createLastmileStorefront(sdk).choose("cart_1", {
      shippingOptionId: "so_next_day",
      rateCode: "ND-STD",
    })
    expect(chosen).toEqual(cart)
    expect(calls).toEqual([
      {
        path: "/store/carts/cart_1/shipping-methods",
        init: {
          method: "POST",
          query: { fields: "+shipping_methods.data,+shipping_methods.name" },
          body: { option_id: "so_next_day", data: { rate_code: "ND-STD" } },
        },
      },
    ])
  })

  it("chooses a store by its option alone", async () => {
    const { sdk, calls } = fakeSdk(() => ({ cart: { id: "cart_1" } }))
    await createLastmileStorefront(sdk).choose("cart_1", { shippingOptionId: "so_camden", rateCode: null })
    expect(calls[0].init?.body).toEqual({ option_id: "so_camden" })
  })

  it("rejects a refused choice with the plugin's sentence for the shopper", async () => {
    const { sdk } = fakeSdk(() => {
      throw new FetchError(PHONE_MISSING, "Bad Request", 400)
    })
    const choosing = createLastmileStorefront(sdk).choose("cart_1", { shippingOptionId: "so_next_day", rateCode: null })
    await expect(choosing).rejects.toThrow(LastmileStorefrontError)
    await expect(choosing).rejects.toMatchObject({ message: PHONE_MISSING, status: 400, shopperCanFix: true })
  })

  it("says the store cannot be reached when no answer came back", async () => {
    const { sdk } = fakeSdk(() => {
      throw new TypeError("fetch failed")
    })
    await expect(createLastmileStorefront(sdk).listRates("cart_1")).rejects.toMatchObject({
      message: UNREACHABLE_MESSAGE,
      status: null,
      shopperCanFix: false,
    })
  })

  it("reads an order's tracking from the store API's order", async () => {
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Next day delivery", data: methodData() }],
      fulfillments: [bookedFulfillment()],
    }
    const { sdk, calls } = fakeSdk(() => ({ order }))
    const tracking = await createLastmileStorefront(sdk).retrieveTracking("order_1")
    expect(calls).toEqual([
      {
        path: "/store/orders/order_1",
        init: { method: "GET", query: { fields: "id,*shipping_methods,*fulfillments" }, cache: "no-store" },
      },
    ])
    expect(tracking).toMatchObject({
      status: "booked",
      trackingNumber: "LM-4242",
      trackingUrl: "https://track.example.com/LM-4242",
    })
  })
})

describe("over the real js-sdk", () => {
  let server: Server
  let baseUrl: string
  const seen: { method?: string; url?: string; key?: string | string[]; body: string }[] = []
  let answer: { status: number; body: unknown } = { status: 200, body: {} }

  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      let body = ""
      for await (const chunk of req) {
        body += chunk
      }
      seen.push({ method: req.method, url: req.url, key: req.headers["x-publishable-api-key"], body })
      res.writeHead(answer.status, { "content-type": "application/json" })
      res.end(JSON.stringify(answer.body))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  beforeEach(() => {
    seen.length = 0
  })

  // The app's own js-sdk instance is what a storefront passes (this also type-checks it against LastmileSdk).
  const storefront = () => createLastmileStorefront(new Medusa({ baseUrl, publishableKey: "pk_test" }))

  it("sends the rates request with the publishable key and the cart id in the query", async () => {
    answer = { status: 200, body: LIVE_RATES }
    await expect(storefront().listRates("cart_1")).resolves.toEqual(LIVE_RATES)
    expect(seen).toEqual([{ method: "GET", url: "/store/lastmile/rates?cart_id=cart_1", key: "pk_test", body: "" }])
  })

  it("posts the choice as JSON and surfaces Medusa's 400 message", async () => {
    answer = { status: 400, body: { type: "invalid_data", message: PHONE_MISSING } }
    await expect(
      storefront().choose("cart_1", { shippingOptionId: "so_next_day", rateCode: "ND-STD" })
    ).rejects.toMatchObject({ name: "LastmileStorefrontError", message: PHONE_MISSING, status: 400 })
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: `/store/carts/cart_1/shipping-methods?fields=${encodeURIComponent("+shipping_methods.data,+shipping_methods.name")}`,
    })
    expect(JSON.parse(seen[0].body)).toEqual({ option_id: "so_next_day", data: { rate_code: "ND-STD" } })
  })
})
