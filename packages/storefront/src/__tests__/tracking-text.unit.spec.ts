import {
  formatStoreAddress,
  storeAddressUnlessIn,
  readOrderTracking,
  LASTMILE_STATUS_TEXT,
  describeOrderTracking,
  type LastmileOrderBookingResponse,
  type LastmileOrderLike,
  type LastmileShopperStep,
} from "../index.js"
import {
  CAMDEN_READINESS,
  CAMDEN_STORE,
  NOW,
  bookedFulfillment,
  currentCollectionData,
  currentFulfillment,
  currentMethodData,
  methodData,
} from "./plugin-answers.js"

const LONDON = { locale: "en-GB", timeZone: "Europe/London", now: NOW }

/** Intl separates with narrow and no-break spaces; compare the words. */
const plain = (text: string | null) => text?.replace(/\s/g, " ") ?? null

function trackingTextOf(order: Omit<LastmileOrderLike, "id">) {
  const tracking = readOrderTracking({ id: "order_1", ...order })
  if (!tracking) {
    throw new Error("the order has no lastmile method")
  }
  return describeOrderTracking(tracking, LONDON)
}

const NO_LINK = { taskId: 7, trackingId: "LM-7", trackingUrl: null }

describe("describeOrderTracking", () => {
  it("names a delivery by the chosen rate, with its window, text and tracking link", () => {
    const text = trackingTextOf({
      shipping_methods: [{ name: "Next day delivery", data: currentMethodData() }],
      fulfillments: [currentFulfillment({ kind: "delivery", rateName: "Next day eco" })],
    })
    expect({ ...text, windowText: plain(text.windowText) }).toEqual({
      heading: "Your delivery",
      title: "Next day eco",
      statusText: "Booked with our courier.",
      windowText: "Tomorrow, 12:00–22:00",
      details: "By cargo bike",
      storeAddress: null,
      readiness: null,
      bring: null,
      link: { href: "https://track.example.com/LM-4242", text: "Track your delivery" },
      codeText: "Tracking code LM-4242",
      collectBy: null,
      collectByText: null,
      collectionCode: null,
      instructions: null,
    })
  })

  it("names a delivery placed before 0.2 by its rate too", () => {
    const text = trackingTextOf({
      shipping_methods: [{ name: "Next day delivery", data: methodData() }],
      fulfillments: [bookedFulfillment()],
    })
    expect(text).toMatchObject({ title: "Next day", link: { href: "https://track.example.com/LM-4242" } })
  })

  it("reads a collection as one: the store, its address, when it is ready, and no courier or link", () => {
    const text = trackingTextOf({
      shipping_methods: [{ name: "Collect from Camden", data: currentCollectionData() }],
      fulfillments: [currentFulfillment({ kind: "collection", store: CAMDEN_STORE }, NO_LINK)],
    })
    expect(text).toEqual({
      heading: "Your collection",
      title: "Camden",
      statusText: "Booked for collection at the store.",
      windowText: null,
      details: null,
      storeAddress: "12 Camden High St, London, NW1 0JH",
      readiness: "Ready to collect from 14:00 today.",
      bring: null,
      link: null,
      codeText: "Tracking code LM-7",
      // Not ready yet: no collect-by and no code.
      collectBy: null,
      collectByText: null,
      collectionCode: null,
      instructions: null,
    })
  })

  it("links a collection's tracking only when the service gave a link", () => {
    const text = trackingTextOf({
      shipping_methods: [{ name: "Collect from Camden", data: currentCollectionData() }],
      fulfillments: [currentFulfillment({ kind: "collection", store: CAMDEN_STORE })],
    })
    expect(text.link).toEqual({ href: "https://track.example.com/LM-4242", text: "Follow your order to the store" })
  })

  it("says what to bring when the service said", () => {
    const data = currentCollectionData({ collectionInstructions: "Bring the order number." })
    expect(trackingTextOf({ shipping_methods: [{ name: "Collect from Camden", data }] }).bring).toBe(
      "Bring the order number."
    )
  })

  it("does not repeat an address the readiness text already gives", () => {
    const data = currentCollectionData({ description: CAMDEN_READINESS })
    const text = trackingTextOf({ shipping_methods: [{ name: "Collect from Camden", data }] })
    expect([text.storeAddress, text.readiness]).toEqual([null, CAMDEN_READINESS])
  })

  it("reads a collection placed before 0.2 by its option's name and the service's text", () => {
    const data = methodData({
      optionId: "lastmile-collection",
      kind: "collection",
      rateCode: "SVC_COL",
      description: CAMDEN_READINESS,
      window: null,
    })
    expect(trackingTextOf({ shipping_methods: [{ name: "Collect from Camden", data }] })).toMatchObject({
      heading: "Your collection",
      title: "Collect from Camden",
      statusText: "We are arranging your collection with the store. Its details show here once it is booked.",
      storeAddress: null,
      readiness: CAMDEN_READINESS,
      windowText: null,
      link: null,
      codeText: null,
    })
  })

  it("says a collection is ready at the store once the service said so, and not once collected", () => {
    const ready = { ...currentFulfillment({ kind: "collection", store: CAMDEN_STORE }, NO_LINK), shipped_at: NOW }
    const order = { id: "order_1", shipping_methods: [{ name: "Collect from Camden", data: currentCollectionData() }] }
    const answer = (step: LastmileShopperStep | null): LastmileOrderBookingResponse => ({
      order_id: "order_1",
      booking: { state: "booked", books_on: "order_placed", step },
    })
    const readyText = describeOrderTracking(
      readOrderTracking({ ...order, fulfillments: [ready] }, answer("ready_for_collection"))!
    )
    expect(readyText).toMatchObject({
      statusText: "Ready to collect at the store.",
      readiness: null,
      storeAddress: "12 Camden High St, London, NW1 0JH",
    })
    // A delivery's step never words a collection.
    const odd = describeOrderTracking(
      readOrderTracking({ ...order, fulfillments: [ready] }, answer("out_for_delivery"))!
    )
    expect(odd.statusText).toBe(LASTMILE_STATUS_TEXT.collection.shipped)
    const collected = readOrderTracking(
      { ...order, fulfillments: [{ ...ready, delivered_at: NOW }] },
      answer("ready_for_collection")
    )!
    expect([collected.step, describeOrderTracking(collected).statusText]).toEqual([null, "Collected."])
  })

  it("words every status for its kind", () => {
    expect(LASTMILE_STATUS_TEXT.collection).toEqual({
      pending: "We are arranging your collection with the store. Its details show here once it is booked.",
      booked: "Booked for collection at the store.",
      shipped: "On its way to the store, or ready there to collect.",
      delivered: "Collected.",
      canceled: "This collection was canceled.",
    })
    expect(Object.values(LASTMILE_STATUS_TEXT.collection).join(" ")).not.toMatch(/courier|deliver/i)
    const shipped = { ...currentFulfillment({ kind: "delivery" }), shipped_at: "2026-07-25T08:00:00.000Z" }
    expect(
      trackingTextOf({ shipping_methods: [{ name: "Next day", data: currentMethodData() }], fulfillments: [shipped] })
    ).toMatchObject({ statusText: "On its way to you." })
  })
})

describe("a store's address", () => {
  it("is written on one line, without the country", () => {
    expect(formatStoreAddress(CAMDEN_STORE.address)).toBe("12 Camden High St, London, NW1 0JH")
    expect(formatStoreAddress({ ...CAMDEN_STORE.address, address_2: "Unit 4" })).toBe(
      "12 Camden High St, Unit 4, London, NW1 0JH"
    )
    expect(formatStoreAddress(null)).toBeNull()
  })

  it("is left out when a text already names its street", () => {
    expect(storeAddressUnlessIn(CAMDEN_STORE.address, CAMDEN_READINESS)).toBeNull()
    expect(storeAddressUnlessIn(CAMDEN_STORE.address, "Ready at 14:00.")).toBe("12 Camden High St, London, NW1 0JH")
  })
})
