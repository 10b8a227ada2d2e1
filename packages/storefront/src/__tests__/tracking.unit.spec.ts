import type { HttpTypes } from "@medusajs/types"
import {
  LASTMILE_PROVIDER_ID,
  isLastmileShippingOption,
  readChosenMethod,
  readOrderTracking,
  type LastmileCartLike,
  type LastmileOrderLike,
} from "../index.js"
import {
  CAMDEN_READINESS,
  CAMDEN_STORE,
  bookedFulfillment,
  currentCollectionData,
  currentFulfillment,
  currentMethodData,
  methodData,
  OPTION_KINDS,
  pendingFulfillment,
} from "./plugin-answers.js"

// Medusa's own store types fit what the helpers read, so a storefront passes its order and cart as they are.
type Fits<A, B> = [A] extends [B] ? true : false
const orderFits: Fits<HttpTypes.StoreOrder, LastmileOrderLike> = true
const cartFits: Fits<HttpTypes.StoreCart, LastmileCartLike> = true
const chosenFits: Fits<[HttpTypes.StoreCart, HttpTypes.StoreOrder], Parameters<typeof readChosenMethod>[0][]> = true

const placed = (overrides: Partial<LastmileOrderLike> = {}): LastmileOrderLike => ({
  id: "order_1",
  shipping_methods: [{ name: "Next day delivery", shipping_option_id: "so_next_day", data: methodData() }],
  fulfillments: [],
  ...overrides,
})

describe("readOrderTracking", () => {
  it("takes Medusa's StoreOrder (and the step Medusa's StoreCart) as typed by @medusajs/types", () => {
    expect([orderFits, cartFits, chosenFits]).toEqual([true, true, true])
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
      choiceName: "Next day",
      window: { from: "2026-07-25T07:00:00.000Z", to: "2026-07-25T19:00:00.000Z" },
      description: null,
      collection: null,
      booking: null,
      booksOn: null,
      step: null,
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
      choiceName: "Collect from Camden",
      collection: {
        name: "Collect from Camden",
        address: null,
        readiness: CAMDEN_READINESS,
        bring: null,
        stockLocationId: "sloc_camden",
        merchantLocationId: "store-camden",
      },
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

describe("readOrderTracking, on data written since 0.2", () => {
  const ECO_WINDOW = { from: "2026-07-25T11:00:00.000Z", to: "2026-07-25T21:00:00.000Z" }
  const delivery = (fulfillments: LastmileOrderLike["fulfillments"] = []) =>
    placed({
      shipping_methods: [{ name: "Next day delivery", shipping_option_id: "so_next_day", data: currentMethodData() }],
      fulfillments,
    })
  const collection = (fulfillments: LastmileOrderLike["fulfillments"] = [], data = currentCollectionData()) =>
    placed({ shipping_methods: [{ name: "Collect from Camden", data }], fulfillments })

  it("names a delivery by the rate the shopper chose, not the option", () => {
    const booked = currentFulfillment({ kind: "delivery", rateName: "Next day eco", window: ECO_WINDOW })
    expect(readOrderTracking(delivery([booked]))).toMatchObject({
      kind: "delivery",
      status: "booked",
      methodName: "Next day delivery",
      rateName: "Next day eco",
      choiceName: "Next day eco",
      window: ECO_WINDOW,
      description: "By cargo bike",
      trackingNumber: "LM-4242",
      trackingUrl: "https://track.example.com/LM-4242",
      collection: null,
    })
  })

  it("is pending while the booking is under way", () => {
    expect(readOrderTracking(delivery([pendingFulfillment()]))).toMatchObject({
      status: "pending",
      trackingNumber: null,
      trackingUrl: null,
    })
  })

  it("is canceled once the service cancelled the booking, before Medusa's fulfillment follows", () => {
    const booked = currentFulfillment({ kind: "delivery" })
    const cancelled = { ...booked, data: { ...booked.data, cancelled: "service" } }
    expect(readOrderTracking(delivery([cancelled]))?.status).toBe("canceled")
  })

  it("reads the order's delivery, never a return's booking", () => {
    const booked = currentFulfillment({ kind: "delivery" })
    const returned = {
      ...currentFulfillment({ kind: "return" }, { taskId: 99, trackingId: "LM-99", trackingUrl: null }),
      id: "ful_return",
      created_at: "2026-07-26T09:00:00.000Z",
    }
    expect(readOrderTracking(delivery([booked, returned]))).toMatchObject({ trackingNumber: "LM-4242" })
  })

  it("reads a collection's store, its address and readiness, and no link when the service gave none", () => {
    const booked = currentFulfillment(
      { kind: "collection", store: CAMDEN_STORE },
      { taskId: 7, trackingId: "LM-7", trackingUrl: null }
    )
    expect(readOrderTracking(collection([booked]))).toMatchObject({
      kind: "collection",
      status: "booked",
      choiceName: "Camden",
      trackingNumber: "LM-7",
      trackingUrl: null,
      collection: {
        name: "Camden",
        address: CAMDEN_STORE.address,
        readiness: "Ready to collect from 14:00 today.",
        bring: null,
        stockLocationId: null,
        merchantLocationId: null,
      },
    })
  })

  it("gives a collection's tracking link when the service gave one", () => {
    const booked = currentFulfillment({ kind: "collection", store: CAMDEN_STORE })
    expect(readOrderTracking(collection([booked]))?.trackingUrl).toBe("https://track.example.com/LM-4242")
  })

  it("says what to bring only when the service said", () => {
    const said = currentCollectionData({ collectionInstructions: "Bring the order number and photo ID." })
    expect(readOrderTracking(collection([], said))?.collection?.bring).toBe("Bring the order number and photo ID.")
    const booked = { ...currentFulfillment({ kind: "collection" }), id: "ful_2" }
    const inBooking = { ...booked, data: { ...booked.data, bring: "Bring your card." } }
    expect(readOrderTracking(collection([inBooking]))?.collection?.bring).toBe("Bring your card.")
  })

  it("takes the store, the rate's name and the window from the booking when the method lacks them", () => {
    const bare = currentCollectionData({ store: null, rateName: null })
    const booked = currentFulfillment({ kind: "collection", store: CAMDEN_STORE, rateName: "Click and collect" })
    expect(readOrderTracking(collection([booked], bare))).toMatchObject({
      rateName: "Click and collect",
      choiceName: "Camden",
      collection: { name: "Camden", address: CAMDEN_STORE.address },
    })
    const plain = placed({
      shipping_methods: [{ name: "Next day delivery", data: currentMethodData({ rateName: null, window: null }) }],
      fulfillments: [currentFulfillment({ kind: "delivery", rateName: "Next day eco", window: ECO_WINDOW })],
    })
    expect(readOrderTracking(plain)).toMatchObject({ choiceName: "Next day eco", window: ECO_WINDOW })
  })
})

describe("the plugin's names, as the storefront reads them", () => {
  it("knows the provider by the plugin's identifier, whatever id the host registered it under", () => {
    expect(LASTMILE_PROVIDER_ID).toBe("lastmile_lastmile")
    expect(isLastmileShippingOption({ provider_id: LASTMILE_PROVIDER_ID })).toBe(true)
    expect(isLastmileShippingOption({ provider_id: "lastmile_courier" })).toBe(true)
    expect(isLastmileShippingOption({ provider_id: "manual_manual" })).toBe(false)
  })

  it.each(OPTION_KINDS)("tells the kind of method data %p as the plugin does", (optionId, kind) => {
    const tracking = readOrderTracking(placed({ shipping_methods: [{ name: "x", data: { optionId } }] }))
    expect(tracking?.kind ?? null).toBe(kind === "return" ? null : kind)
  })
})
