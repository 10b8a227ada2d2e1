import {
  LASTMILE_COLLECTION_TEXT,
  createLastmileStorefront,
  describeChosenMethod,
  describeCollectionCode,
  describeOrderTracking,
  formatCollectBy,
  isSettled,
  readChosenMethod,
  readOrderTracking,
} from "../index.js"
import {
  CAMDEN_STORE,
  NOW,
  READY_AT_CAMDEN,
  collectionBooking,
  currentCollectionData,
  currentFulfillment,
} from "./plugin-answers.js"
import { fakeSdk } from "./sdk.js"

const LONDON = { locale: "en-GB", timeZone: "Europe/London", now: NOW }
const NO_LINK = { taskId: 7, trackingId: "LM-7", trackingUrl: null }

/** Intl separates with narrow and no-break spaces; compare the words. */
const plain = (text: string | null | undefined) => text?.replace(/\s/g, " ") ?? null

/** A collection at Camden booked (never marked shipped: it waits at the store), as the store API shows the order. */
const ORDER = {
  id: "order_1",
  shipping_methods: [
    {
      name: "Collect from Camden",
      data: currentCollectionData({
        store: { ...CAMDEN_STORE, instructions: "Ring the bell at the side door." },
      }),
    },
  ],
  fulfillments: [currentFulfillment({ kind: "collection", store: CAMDEN_STORE }, NO_LINK)],
}

describe("a collection ready at its store", () => {
  it("reads the booking's collect-by, code and the store's instructions into the tracking", () => {
    const tracking = readOrderTracking(ORDER, collectionBooking(READY_AT_CAMDEN))!
    expect(tracking).toMatchObject({ status: "booked", step: "ready_for_collection" })
    expect(tracking.collection).toMatchObject({
      readyAt: "2026-07-24T13:05:00.000Z",
      collectBy: "2026-07-31T17:00:00.000Z",
      code: "ACE479",
      collected: false,
      expired: false,
      // The booking's words are the store's words now; the method kept those of the moment the shopper chose.
      instructions: "Collect from the side door on Jamestown Road.",
    })
  })

  it("says when to collect by and the code to show, with the code spelt out for a screen reader", () => {
    const text = describeOrderTracking(readOrderTracking(ORDER, collectionBooking(READY_AT_CAMDEN))!, LONDON)
    expect(text.statusText).toBe("Ready to collect at the store.")
    expect([plain(text.collectBy), plain(text.collectByText)]).toEqual([
      "Friday 31 July, 18:00",
      "Collect by Friday 31 July, 18:00.",
    ])
    expect(text.collectionCode).toEqual({
      label: "Collection code",
      code: "ACE479",
      text: "ACE 479",
      groups: ["ACE", "479"],
      spokenText: "A C E 4 7 9",
      hint: "Show it at the counter: the store hands your order to whoever has it.",
    })
    expect(text.instructions).toBe("Collect from the side door on Jamestown Road.")
  })

  it("shows the store's instructions kept at checkout before it is ready, with no collect-by or code yet", () => {
    const text = describeOrderTracking(readOrderTracking(ORDER, collectionBooking(null))!, LONDON)
    expect(text).toMatchObject({
      statusText: "Booked for collection at the store.",
      collectBy: null,
      collectionCode: null,
      instructions: "Ring the bell at the side door.",
    })
    const chosen = readChosenMethod(ORDER)!
    expect(chosen.store?.instructions).toBe("Ring the bell at the side door.")
    expect(describeChosenMethod(chosen, LONDON).storeInstructions).toBe("Ring the bell at the side door.")
  })

  it("is collected once the booking route says so, before Medusa's fulfillment does: no code any more", () => {
    const handedOver = { ...READY_AT_CAMDEN, code: null, collected: true }
    const tracking = readOrderTracking(ORDER, collectionBooking(handedOver, null))!
    expect([tracking.status, tracking.collection?.code, tracking.collection?.collected]).toEqual([
      "delivered",
      null,
      true,
    ])
    const text = describeOrderTracking(tracking, LONDON)
    expect([text.statusText, text.collectBy, text.collectionCode]).toEqual(["Collected.", null, null])
    expect(isSettled(tracking, "done")).toBe(true)
  })

  it("says when nobody collected it in time, keeps the code, and stops waiting: the shop decides", () => {
    const expired = readOrderTracking(ORDER, collectionBooking({ ...READY_AT_CAMDEN, expired: true }))!
    const text = describeOrderTracking(expired, LONDON)
    expect(text.statusText).toBe(LASTMILE_COLLECTION_TEXT.expired)
    expect([text.collectBy, text.collectionCode?.code]).toEqual([null, "ACE479"])
    expect(isSettled(expired, "done")).toBe(true)
    expect(isSettled(readOrderTracking(ORDER, collectionBooking(READY_AT_CAMDEN)), "done")).toBe(false)
  })

  it("reads the booking route while the collection waits at the store", async () => {
    const { sdk, calls } = fakeSdk((path) =>
      path.endsWith("/booking") ? collectionBooking(READY_AT_CAMDEN) : { order: ORDER }
    )
    const tracking = await createLastmileStorefront(sdk).retrieveTracking("order_1")
    expect(calls.map((call) => call.path)).toEqual(["/store/orders/order_1", "/store/lastmile/orders/order_1/booking"])
    expect(tracking?.collection?.code).toBe("ACE479")
  })
})

describe("a collection code", () => {
  it("is shown in two groups as the messages write it, copied as its characters, and said one at a time", () => {
    expect(describeCollectionCode(" ace 479 ")).toMatchObject({
      code: "ACE479",
      text: "ACE 479",
      groups: ["ACE", "479"],
      spokenText: "A C E 4 7 9",
    })
    expect(describeCollectionCode("ACE4")).toMatchObject({ code: "ACE4", text: "ACE4", groups: ["ACE4"] })
    expect(describeCollectionCode("")).toBeNull()
    expect(describeCollectionCode(null)).toBeNull()
  })

  it("is due by a date in the store's zone, not a relative day", () => {
    expect(plain(formatCollectBy("2026-07-24T17:00:00.000Z", LONDON))).toBe("Friday 24 July, 18:00")
    expect(plain(formatCollectBy("2026-12-24T17:00:00.000Z", LONDON))).toBe("Thursday 24 December, 17:00")
    expect(formatCollectBy("soon", LONDON)).toBeNull()
  })
})
