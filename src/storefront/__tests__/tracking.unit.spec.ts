import type { HttpTypes } from "@medusajs/types"
import { readFulfillmentData, readShippingMethodData } from "../../lib/lastmile/contracts"
import { LASTMILE_PROVIDER_ID as PLUGIN_PROVIDER_ID, optionKindOf } from "../../lib/lastmile/fulfillment-options"
import { LASTMILE_PROVIDER_ID, isLastmileShippingOption } from "../delivery-step"
import { readOrderTracking } from "../tracking"
import type { LastmileCartLike, LastmileOrderLike } from "../types"
import { CAMDEN_READINESS, bookedFulfillment, methodData } from "./fixtures"

// Medusa's own store types fit what the helpers read, so a storefront passes its order and cart as they are.
type Fits<A, B> = [A] extends [B] ? true : false
const orderFits: Fits<HttpTypes.StoreOrder, LastmileOrderLike> = true
const cartFits: Fits<HttpTypes.StoreCart, LastmileCartLike> = true

const placed = (overrides: Partial<LastmileOrderLike> = {}): LastmileOrderLike => ({
  id: "order_1",
  shipping_methods: [{ name: "Next day delivery", shipping_option_id: "so_next_day", data: methodData() }],
  fulfillments: [],
  ...overrides,
})

describe("readOrderTracking", () => {
  it("takes Medusa's StoreOrder (and the step Medusa's StoreCart) as typed by @medusajs/types", () => {
    expect([orderFits, cartFits]).toEqual([true, true])
  })

  it("is pending right after the order is placed, with the window the shopper chose", () => {
    expect(readOrderTracking(placed())).toEqual({
      orderId: "order_1",
      kind: "delivery",
      status: "pending",
      trackingNumber: null,
      trackingUrl: null,
      shippedAt: null,
      deliveredAt: null,
      methodName: "Next day delivery",
      rateName: "Next day",
      window: { from: "2026-07-25T07:00:00.000Z", to: "2026-07-25T19:00:00.000Z" },
      description: null,
      collection: null,
    })
  })

  it("gives the tracking code and link once booked, from the fulfillment's data", () => {
    const { labels: _labels, ...withoutLabels } = bookedFulfillment()
    expect(readOrderTracking(placed({ fulfillments: [withoutLabels] }))).toMatchObject({
      status: "booked",
      trackingNumber: "LM-4242",
      trackingUrl: "https://track.example.com/LM-4242",
    })
  })

  it("follows the fulfillment to shipped and delivered", () => {
    const shipped = { ...bookedFulfillment(), shipped_at: new Date("2026-07-25T08:10:00.000Z") }
    expect(readOrderTracking(placed({ fulfillments: [shipped] }))).toMatchObject({
      status: "shipped",
      shippedAt: "2026-07-25T08:10:00.000Z",
    })
    const delivered = { ...shipped, delivered_at: "2026-07-25T11:42:00.000Z" }
    expect(readOrderTracking(placed({ fulfillments: [delivered] }))).toMatchObject({
      status: "delivered",
      deliveredAt: "2026-07-25T11:42:00.000Z",
    })
  })

  it("names the store of a collection and its readiness text", () => {
    const data = methodData({
      optionId: "lastmile-collection",
      kind: "collection",
      rateCode: "SVC_COL",
      rateName: "Camden",
      rateChosen: false,
      stockLocationId: "sloc_camden",
      merchantLocationId: "store-camden",
      description: CAMDEN_READINESS,
      window: null,
    })
    const order = placed({ shipping_methods: [{ name: "Collect from Camden", data }] })
    expect(readOrderTracking(order)).toMatchObject({
      kind: "collection",
      description: CAMDEN_READINESS,
      collection: { name: "Collect from Camden", stockLocationId: "sloc_camden", merchantLocationId: "store-camden" },
    })
  })

  it("reads the booked fulfillment, not an earlier canceled one", () => {
    const canceled = {
      id: "ful_0",
      provider_id: LASTMILE_PROVIDER_ID,
      data: {},
      canceled_at: "2026-07-24T09:00:01.500Z",
      created_at: "2026-07-24T09:00:00.500Z",
    }
    const booked = bookedFulfillment({ id: "ful_1", created_at: "2026-07-24T09:05:00.000Z" })
    expect(readOrderTracking(placed({ fulfillments: [canceled, booked] }))).toMatchObject({
      status: "booked",
      trackingNumber: "LM-4242",
    })
    expect(readOrderTracking(placed({ fulfillments: [canceled] }))?.status).toBe("canceled")
  })

  it("is null for an order shipped by another provider", () => {
    const order = placed({ shipping_methods: [{ name: "Standard", data: {} }], fulfillments: [] })
    expect(readOrderTracking(order)).toBeNull()
  })
})

describe("the plugin's names, as the storefront reads them", () => {
  it("reads data the plugin's own schemas accept", () => {
    expect(readShippingMethodData(methodData())).not.toBeNull()
    expect(readFulfillmentData(bookedFulfillment().data)).not.toBeNull()
  })

  it("knows the provider id the plugin registers", () => {
    expect(LASTMILE_PROVIDER_ID).toBe(PLUGIN_PROVIDER_ID)
    expect(isLastmileShippingOption({ provider_id: PLUGIN_PROVIDER_ID })).toBe(true)
    expect(isLastmileShippingOption({ provider_id: "manual_manual" })).toBe(false)
  })

  it.each(["lastmile-next-day", "lastmile-same-day", "lastmile-collection", "lastmile-return", "manual", ""])(
    "tells the kind of method data %p as the plugin does",
    (optionId) => {
      const kind = optionKindOf(optionId)
      const tracking = readOrderTracking(placed({ shipping_methods: [{ name: "x", data: { optionId } }] }))
      expect(tracking?.kind ?? null).toBe(kind === "return" ? null : kind)
    }
  )
})
