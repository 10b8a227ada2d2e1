import { parseQuote } from "../../service-client"
import {
  attributeCollectionRates,
  describeRateError,
  selectCollectionRate,
  selectDeliveryRate,
} from "../rate-selection"

describe("delivery rate selection", () => {
  const quote = parseQuote({
    rates: [
      {
        rateCode: "B",
        name: "Next day",
        price: { amount: 495, currency: "GBP" },
        window: { from: "2026-01-02T08:00:00Z", to: "2026-01-02T20:00:00Z" },
      },
      {
        rateCode: "A",
        name: "Next day eco",
        price: { amount: 395, currency: "GBP" },
        window: { from: "2026-01-02T12:00:00Z", to: "2026-01-02T22:00:00Z" },
      },
      { rateCode: "C", name: "Next day morning", price: null, error: { code: "VEHICLE_FULL", details: { slots: 0 } } },
      { rateCode: "SVC_COL", name: "Camden store", price: 0 },
    ],
  })

  it("prices by the cheapest offerable rate, or the earliest window, and never offers an errored rate", () => {
    expect(selectDeliveryRate(quote, "NEXT_DAY", "gbp")).toMatchObject({ ok: true, rate: { rateCode: "A" } })
    expect(selectDeliveryRate(quote, "NEXT_DAY", "gbp", { rule: "earliest" })).toMatchObject({
      ok: true,
      rate: { rateCode: "B" },
    })
    const choice = selectDeliveryRate(quote, "NEXT_DAY", "gbp")
    expect(choice.rates?.offered.map((r) => r.rate.rateCode)).toEqual(["A", "B"])
    expect(choice.rates?.refused).toMatchObject([
      { rate: { rateCode: "C" }, reason: "rate_error", detail: "Vehicle full." },
    ])
  })

  it("keeps a wished rate by code, else by its unique name; a chosen rate has no stand-in", () => {
    expect(selectDeliveryRate(quote, "NEXT_DAY", "gbp", { wish: { rateCode: "B", chosen: true } })).toMatchObject({
      ok: true,
      rate: { rateCode: "B" },
    })
    expect(
      selectDeliveryRate(quote, "NEXT_DAY", "gbp", { wish: { rateCode: "B-old", name: "Next day", chosen: true } })
    ).toMatchObject({ ok: true, rate: { rateCode: "B" } })
    expect(selectDeliveryRate(quote, "NEXT_DAY", "gbp", { wish: { rateCode: "C", chosen: true } })).toMatchObject({
      ok: false,
      reason: "rate_error",
    })
    expect(selectDeliveryRate(quote, "NEXT_DAY", "gbp", { wish: { rateCode: "gone", chosen: true } })).toMatchObject({
      ok: false,
      reason: "rate_missing",
    })
    // Picked by the rule, not the shopper: the rule stands in when it is gone.
    expect(selectDeliveryRate(quote, "NEXT_DAY", "gbp", { wish: { rateCode: "gone" } })).toMatchObject({
      ok: true,
      rate: { rateCode: "A" },
    })
  })

  it("describes an error of any shape in words, never as JSON", () => {
    expect(describeRateError("No van tomorrow")).toBe("No van tomorrow")
    expect(describeRateError({ code: "OUT_OF_STOCK" })).toBe("Out of stock.")
    expect(describeRateError({ errors: [{ detail: "Too heavy for a bike" }] })).toBe("Too heavy for a bike")
    expect(describeRateError({ error: { message: "Closed on Sundays" } })).toBe("Closed on Sundays")
    expect(describeRateError({ code: 42, details: { slots: 0 } })).toBe("The service cannot offer this rate right now.")
    expect(describeRateError(true)).toBe("The service cannot offer this rate right now.")
    expect(describeRateError('{"error":{"message":"Van full"}}')).toBe("Van full")
    expect(describeRateError("vehicle_full")).toBe("Vehicle full.")
    expect(describeRateError("<html><body>502 Bad Gateway</body></html>")).toBe(
      "The service cannot offer this rate right now."
    )
    expect(describeRateError("x".repeat(500))).toHaveLength(200)
  })
})

describe("rate selection", () => {
  const quote = parseQuote({
    eligibility: "PARTIAL",
    rates: [
      { rateCode: "ND1", deliveryType: "NEXT_DAY", price: { amount: 495, currency: "GBP" } },
      { rateCode: "SVC_COL", merchantLocationId: "store-a", name: "Store A", price: 0 },
      { rateCode: "SVC_COL", merchantLocationId: "store-b", name: "Store B", error: { message: "No stock" } },
    ],
  })

  it("prices a delivery option from the rate of its delivery type", () => {
    const choice = selectDeliveryRate(quote, "NEXT_DAY", "gbp")
    expect(choice).toMatchObject({ ok: true, rate: { rateCode: "ND1" }, price: { amount: 495 } })
  })

  it("makes an option unavailable, with the reason, for a missing rate, an error, or another currency", () => {
    expect(selectDeliveryRate(quote, "SAME_DAY", "gbp")).toMatchObject({
      ok: false,
      reason: "rate_missing",
    })
    expect(selectCollectionRate(quote, "store-b", "gbp")).toEqual({
      ok: false,
      reason: "rate_error",
      detail: "No stock",
    })
    expect(selectDeliveryRate(quote, "NEXT_DAY", "eur")).toMatchObject({
      ok: false,
      reason: "currency_mismatch",
    })
    expect(selectDeliveryRate(parseQuote({ rates: [] }), "NEXT_DAY", "gbp")).toMatchObject({
      ok: false,
      reason: "route_not_served",
    })
  })

  it("reads a bare-number collection price in the cart's currency", () => {
    expect(selectCollectionRate(quote, "store-a", "gbp")).toMatchObject({
      ok: true,
      price: { amount: 0, currency: "GBP" },
    })
  })

  it("attributes unlabelled collection rates by store address, and refuses ambiguous ones", () => {
    const unlabelled = parseQuote({
      rates: [
        {
          rateCode: "SVC_COL",
          name: "Camden store",
          description: "Collect from Camden store, 201 Camden High Street",
          price: 0,
        },
        { rateCode: "SVC_COL", name: "High Street store", description: "Collect from High Street", price: 0 },
      ],
    })
    const stores = [
      { externalLocationId: "store-camden", name: "Camden store", addressLine1: "201 Camden High Street" },
      { externalLocationId: "store-islington", name: "Islington store", addressLine1: "88 Upper Street" },
    ]
    const { byStore, unattributed } = attributeCollectionRates(unlabelled, stores)
    expect([...byStore.keys()]).toEqual(["store-camden"])
    expect(unattributed).toHaveLength(1)
    expect(selectCollectionRate(unlabelled, "store-camden", "gbp", stores).ok).toBe(true)
    expect(selectCollectionRate(unlabelled, "store-islington", "gbp", stores)).toMatchObject({
      ok: false,
      reason: "store_ambiguous",
    })
  })

  it("tells a quote whose every collection rate is placed from one with a store the list does not know", () => {
    const camden = { externalLocationId: "store-camden", name: "Camden store", addressLine1: "201 Camden High Street" }
    const market = {
      externalLocationId: "store-camden-market",
      name: "Camden Market store",
      addressLine1: "54 Camden Lock Place",
    }
    const rate = (name: string, description: string) => ({ rateCode: "SVC_COL", name, description, price: 0 })
    const known = parseQuote({ rates: [rate("Camden store", "201 Camden High Street")] })
    expect(selectCollectionRate(known, "store-camden-market", "gbp", [camden])).toMatchObject({ unplaced: false })

    // The new store's rate names Camden's street too: it claims the known store a second time, so it is not placed.
    const added = parseQuote({
      rates: [
        rate("Camden store", "201 Camden High Street"),
        rate("Camden Market store", "54 Camden Lock Place, by 201 Camden High Street"),
      ],
    })
    expect(selectCollectionRate(added, "store-camden-market", "gbp", [camden])).toMatchObject({ unplaced: true })
    expect(selectCollectionRate(added, "store-camden-market", "gbp", [camden])).toMatchObject({
      ok: false,
      reason: "rate_missing",
    })
    // Read again, the list knows the new store, and the rate names both: never priced as either.
    expect(selectCollectionRate(added, "store-camden-market", "gbp", [camden, market])).toMatchObject({
      ok: false,
      reason: "store_ambiguous",
    })
    const own = parseQuote({ rates: [rate("Camden store", "201 Camden High Street"), rate("Camden Market store", "")] })
    expect(selectCollectionRate(own, "store-soho", "gbp", [camden, market])).toMatchObject({ unplaced: false })
  })
})
