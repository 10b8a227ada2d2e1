import { type IncomingMessage, type Server, createServer } from "node:http"
import type { AddressInfo } from "node:net"
import Medusa, { FetchError } from "@medusajs/js-sdk"
import {
  type LastmileOrderBookingResponse,
  LastmileStorefrontError,
  UNAVAILABLE_MESSAGE,
  UNREACHABLE_MESSAGE,
  createLastmileStorefront,
  describeOrderTracking,
} from "../index.js"
import { LIVE_RATES, NOW, PHONE_MISSING, bookedFulfillment, methodData } from "./plugin-answers.js"
import { fakeSdk } from "./sdk.js"

/** A logger that remembers what it was told. */
function recordingLogger() {
  const lines: string[] = []
  return { lines, logger: { error: (line: string) => void lines.push(line) } }
}

/** Medusa's answers by path: what the route answers, and what the classifying probes find. */
function medusa(answers: Record<string, () => unknown>) {
  return fakeSdk((path, init) => {
    const key = init?.query?.cart_id !== undefined || !(path in answers) ? `${path}?` : path
    const answer = answers[key] ?? answers[path]
    if (!answer) {
      throw new Error(`no answer for ${path}`)
    }
    return answer()
  })
}

const fail =
  (status: number, message = "Not Found") =>
  () => {
    throw new FetchError(message, message, status)
  }

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

  it("rejects a refused choice with the plugin's sentence for the shopper, and logs nothing", async () => {
    const { lines, logger } = recordingLogger()
    const { sdk } = fakeSdk((path) => {
      if (path === "/store/regions") {
        return { regions: [] }
      }
      throw new FetchError(PHONE_MISSING, "Bad Request", 400)
    })
    const choosing = createLastmileStorefront(sdk, { logger }).choose("cart_1", {
      shippingOptionId: "so_next_day",
      rateCode: null,
    })
    await expect(choosing).rejects.toThrow(LastmileStorefrontError)
    await expect(choosing).rejects.toMatchObject({
      message: PHONE_MISSING,
      status: 400,
      reason: "refused",
      shopperCanFix: true,
    })
    expect(lines).toEqual([])
  })

  it("says the store cannot be reached when no answer came back, and logs why once", async () => {
    const { lines, logger } = recordingLogger()
    const { sdk } = fakeSdk(() => {
      throw new TypeError("fetch failed")
    })
    const lastmile = createLastmileStorefront(sdk, { logger })
    for (let i = 0; i < 2; i++) {
      await expect(lastmile.listRates("cart_1")).rejects.toMatchObject({
        message: UNREACHABLE_MESSAGE,
        status: null,
        reason: "unreachable",
        shopperCanFix: false,
      })
    }
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("GET /store/lastmile/rates: no answer: fetch failed")
    expect(lines[0]).toContain("STORE_CORS")
  })

  it("tells a backend without the plugin's routes from a cart with no lastmile option", async () => {
    const { lines, logger } = recordingLogger()
    // Medusa checks the key before routing: the route's own 404 is the missing route, with the key accepted.
    const { sdk } = medusa({ "/store/lastmile/rates?": fail(404), "/store/lastmile/rates": fail(404) })
    const lastmile = createLastmileStorefront(sdk, { logger })
    await expect(lastmile.loadDeliveryStep("cart_1")).rejects.toMatchObject({
      reason: "route_missing",
      status: 404,
      message: UNAVAILABLE_MESSAGE,
    })
    await expect(lastmile.listRates("cart_2")).rejects.toMatchObject({ reason: "route_missing" })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/GET \/store\/lastmile\/rates answered 404: the backend has no lastmile routes/)

    const empty = medusa({ "/store/lastmile/rates?": () => ({ ...LIVE_RATES, rates: [] }) })
    const step = await createLastmileStorefront(empty.sdk, { logger }).loadDeliveryStep("cart_1")
    expect([step.delivery, step.collection, step.unavailable]).toEqual([[], [], []])
  })

  it("tells a cart that does not exist from a missing route", async () => {
    const { sdk } = medusa({
      "/store/lastmile/rates?": fail(404, "Cart id cart_gone not found"),
      "/store/lastmile/rates": fail(400, "cart_id is required, once"),
    })
    await expect(createLastmileStorefront(sdk, { logger: null }).listRates("cart_gone")).rejects.toMatchObject({
      reason: "not_found",
      status: 404,
    })
  })

  it("tells a refused publishable key from a refused request, and logs it once with what to check", async () => {
    const { lines, logger } = recordingLogger()
    const refused = fail(400, "A valid publishable key is required to proceed with the request")
    const { sdk } = medusa({ "/store/lastmile/rates?": refused, "/store/regions": refused })
    const lastmile = createLastmileStorefront(sdk, { logger })
    for (let i = 0; i < 3; i++) {
      await expect(lastmile.listRates("cart_1")).rejects.toMatchObject({
        reason: "publishable_key",
        status: 400,
        message: UNAVAILABLE_MESSAGE,
        shopperCanFix: false,
      })
    }
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("Medusa refuses the publishable API key")
  })

  it("says a server error is one, transient, and logs it once", async () => {
    const { lines, logger } = recordingLogger()
    const { sdk } = medusa({ "/store/lastmile/rates?": fail(500, "An unknown error occurred.") })
    const lastmile = createLastmileStorefront(sdk, { logger })
    await expect(lastmile.listRates("cart_1")).rejects.toMatchObject({ reason: "server_error", transient: true })
    await expect(lastmile.listRates("cart_1")).rejects.toMatchObject({ reason: "server_error" })
    expect(lines).toEqual([
      "medusa-plugin-lastmile-storefront: GET /store/lastmile/rates answered 500: An unknown error occurred: see the backend's log.",
    ])
  })

  it("reads an order's tracking from the store API's order", async () => {
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Next day delivery", data: methodData() }],
      fulfillments: [bookedFulfillment()],
    }
    const booking: LastmileOrderBookingResponse = {
      order_id: "order_1",
      booking: { state: "booked", books_on: "order_placed", step: null },
    }
    const { sdk, calls } = fakeSdk((path) => (path.endsWith("/booking") ? booking : { order }))
    const tracking = await createLastmileStorefront(sdk).retrieveTracking("order_1")
    expect(calls[0]).toEqual({
      path: "/store/orders/order_1",
      init: { method: "GET", query: { fields: "id,*shipping_methods,*fulfillments" }, cache: "no-store" },
    })
    expect(tracking).toMatchObject({
      status: "booked",
      trackingNumber: "LM-4242",
      trackingUrl: "https://track.example.com/LM-4242",
      booking: "booked",
      step: null,
    })
  })

  it("says a shipped delivery is out for delivery once the service reported it", async () => {
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Next day delivery", data: methodData() }],
      fulfillments: [{ ...bookedFulfillment(), shipped_at: "2026-07-25T08:00:00.000Z" }],
    }
    const booking: LastmileOrderBookingResponse = {
      order_id: "order_1",
      booking: { state: "booked", books_on: "order_placed", step: "out_for_delivery" },
    }
    const { sdk } = fakeSdk((path) => (path.endsWith("/booking") ? booking : { order }))
    const tracking = await createLastmileStorefront(sdk).retrieveTracking("order_1")
    expect(tracking).toMatchObject({ status: "shipped", step: "out_for_delivery" })
    expect(describeOrderTracking(tracking!).statusText).toBe("Out for delivery: it is with the driver.")
  })

  it("reads a delivered order once, with no booking call, and names no step", async () => {
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Next day delivery", data: methodData() }],
      fulfillments: [
        { ...bookedFulfillment(), shipped_at: "2026-07-25T08:00:00.000Z", delivered_at: "2026-07-25T12:00:00.000Z" },
      ],
    }
    const { sdk, calls } = fakeSdk(() => ({ order }))
    const tracking = await createLastmileStorefront(sdk).retrieveTracking("order_1")
    expect(calls.map((c) => c.path)).toEqual(["/store/orders/order_1"])
    expect(tracking).toMatchObject({ status: "delivered", step: null })
    expect(describeOrderTracking(tracking!).statusText).toBe("Delivered.")
  })

  it("reads a booked order from a backend whose booking answer has no step (an older plugin)", async () => {
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Next day delivery", data: methodData() }],
      fulfillments: [{ ...bookedFulfillment(), shipped_at: "2026-07-25T08:00:00.000Z" }],
    }
    const { sdk } = fakeSdk((path) =>
      path.endsWith("/booking")
        ? { order_id: "order_1", booking: { state: "booked", books_on: "order_placed" } }
        : { order }
    )
    const tracking = await createLastmileStorefront(sdk).retrieveTracking("order_1")
    expect(tracking).toMatchObject({ status: "shipped", step: null })
    expect(describeOrderTracking(tracking!).statusText).toBe("On its way to you.")
  })

  it("reads where the booking stands while the order is not booked yet", async () => {
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Next day delivery", data: methodData() }],
      fulfillments: [],
    }
    const booking: LastmileOrderBookingResponse = {
      order_id: "order_1",
      booking: { state: "needs_attention", books_on: "order_placed" },
    }
    const { sdk, calls } = fakeSdk((path) => (path.endsWith("/booking") ? booking : { order }))
    const tracking = await createLastmileStorefront(sdk).retrieveTracking("order_1")
    expect(calls.map((c) => c.path)).toEqual(["/store/orders/order_1", "/store/lastmile/orders/order_1/booking"])
    expect(tracking).toMatchObject({ status: "pending", booking: "needs_attention", booksOn: "order_placed" })
  })

  it("still reads the tracking of a pending order from a backend without the booking route", async () => {
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Next day delivery", data: methodData() }],
      fulfillments: [],
    }
    const { sdk } = medusa({
      "/store/orders/order_1": () => ({ order }),
      "/store/lastmile/orders/order_1/booking": fail(404),
      "/store/lastmile/rates": fail(404),
    })
    const tracking = await createLastmileStorefront(sdk, { logger: null }).retrieveTracking("order_1")
    expect(tracking).toMatchObject({ status: "pending", booking: null })
  })
})

describe("over the real js-sdk", () => {
  let server: Server
  let baseUrl: string
  const seen: { method?: string; url?: string; key?: string | string[]; body: string }[] = []
  let answer: { status: number; body: unknown } = { status: 200, body: {} }
  let regions: { status: number; body: unknown } = { status: 200, body: { regions: [] } }

  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      let body = ""
      for await (const chunk of req) {
        body += chunk
      }
      seen.push({ method: req.method, url: req.url, key: req.headers["x-publishable-api-key"], body })
      const shown = req.url?.startsWith("/store/regions") ? regions : answer
      res.writeHead(shown.status, { "content-type": "application/json" })
      res.end(JSON.stringify(shown.body))
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
    // The choice is refused; a plain store read (the key's check) is not.
    answer = { status: 400, body: { type: "invalid_data", message: PHONE_MISSING } }
    regions = { status: 200, body: { regions: [] } }
    await expect(
      storefront().choose("cart_1", { shippingOptionId: "so_next_day", rateCode: "ND-STD" })
    ).rejects.toMatchObject({ name: "LastmileStorefrontError", message: PHONE_MISSING, status: 400 })
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: `/store/carts/cart_1/shipping-methods?fields=${encodeURIComponent("+shipping_methods.data,+shipping_methods.name")}`,
    })
    expect(JSON.parse(seen[0].body)).toEqual({ option_id: "so_next_day", data: { rate_code: "ND-STD" } })
  })

  it("tells Medusa's refusal of the publishable key apart through the real js-sdk", async () => {
    const refusal = { status: 400, body: { type: "not_allowed", message: "A valid publishable key is required" } }
    answer = refusal
    regions = refusal
    await expect(
      createLastmileStorefront(new Medusa({ baseUrl, publishableKey: "pk_wrong" }), { logger: null }).listRates(
        "cart_1"
      )
    ).rejects.toMatchObject({ reason: "publishable_key", status: 400 })
    expect(seen.map((s) => s.url)).toEqual(["/store/lastmile/rates?cart_id=cart_1", "/store/regions?limit=1&fields=id"])
  })
})
