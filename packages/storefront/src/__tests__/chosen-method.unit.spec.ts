import { describeChosenMethod, readChosenMethod } from "../chosen-method.js"
import { COLLECTION, DELIVERY } from "./orders.js"

const LONDON = { locale: "en-GB", timeZone: "Europe/London", now: new Date("2026-07-24T09:00:00.000Z") }

describe("the chosen method, in a checkout's summary, its review and an order's frame", () => {
  it("names a delivery by the rate chosen, not by its option", () => {
    const cart = {
      shipping_methods: [
        { shipping_option_id: "so_manual", name: "Standard", amount: 3, data: {} },
        { shipping_option_id: "so_next_day", name: "Next day delivery", amount: 3.95, data: { ...DELIVERY } },
      ],
    }
    const chosen = readChosenMethod(cart)!
    expect(chosen).toMatchObject({ kind: "delivery", name: "Next day eco", optionName: "Next day delivery" })
    expect(describeChosenMethod(chosen, { ...LONDON, currencyCode: "gbp" })).toEqual({
      heading: "Delivery",
      title: "Next day eco",
      priceText: "£3.95",
      priceNote: null,
      windowText: "Tomorrow, 12:00–22:00",
      addressHeading: "Shipping address",
      storeAddress: null,
      storeInstructions: null,
    })
  })

  it("frames a collection as one, with the store's address where the shopper's would be", () => {
    const chosen = readChosenMethod({
      shipping_methods: [{ name: "Collect from Camden", amount: 0, data: { ...COLLECTION } }],
    })!
    expect(describeChosenMethod(chosen, { ...LONDON, currencyCode: "gbp" })).toEqual({
      heading: "Collection",
      title: "Camden",
      priceText: "£0.00",
      priceNote: null,
      windowText: null,
      addressHeading: "Collect from",
      storeAddress: "12 Camden High St, London, NW1 0JH",
      storeInstructions: null,
    })
  })

  it("says a delivery chosen at the shop's estimate is one, named by its option, with no rate's window", () => {
    const chosen = readChosenMethod({
      shipping_methods: [
        {
          name: "Next day delivery",
          amount: 5.95,
          data: {
            provider: "lastmile",
            kind: "delivery",
            rateCode: null,
            rateName: null,
            window: null,
            fallback: true,
          },
        },
      ],
    })!
    expect(describeChosenMethod(chosen, { ...LONDON, currencyCode: "gbp" })).toMatchObject({
      title: "Next day delivery",
      priceText: "£5.95",
      priceNote: "Estimated price",
      windowText: null,
    })
  })

  it("reads a method with the older data by its option, and nothing that is not lastmile's", () => {
    const old = readChosenMethod({
      shipping_methods: [{ name: "Collect from Camden", data: { optionId: "lastmile-collection" } }],
    })
    expect(old).toMatchObject({ kind: "collection", name: "Collect from Camden", store: { address: null } })
    expect(
      readChosenMethod({ shipping_methods: [{ name: "Standard", data: { id: "manual-fulfillment" } }] })
    ).toBeNull()
    expect(
      readChosenMethod({ shipping_methods: [{ name: "Return", data: { optionId: "lastmile-return" } }] })
    ).toBeNull()
    expect(readChosenMethod({})).toBeNull()
  })
})
