import { parseQuote } from "../../service-client"
import { countryName } from "../../address/country-names"
import { currencyExponent, majorToMinor, minorToMajor, readRatePrice } from "../../money/money"
import { normalisePhoneNumber } from "../../address/phone-number"
import { QuoteCache, fingerprint } from "../../../providers/lastmile/quote-cache"
import { attributeCollectionRates, selectCollectionRate, selectDeliveryRate } from "../rate-selection"

describe("money", () => {
  it("uses each currency's own exponent", () => {
    expect([currencyExponent("gbp"), currencyExponent("JPY"), currencyExponent("KWD")]).toEqual([2, 0, 3])
    expect(minorToMajor(495, "gbp")).toBe(4.95)
    expect(minorToMajor(1500, "jpy")).toBe(1500)
    expect(minorToMajor(1250, "kwd")).toBe(1.25)
    expect(minorToMajor(10, "gbp")).toBe(0.1)
  })

  it("converts major units back to minor units by the same exponent", () => {
    expect([majorToMinor(4.95, "gbp"), majorToMinor(1500, "jpy"), majorToMinor(0.495, "kwd")]).toEqual([495, 1500, 495])
  })

  it("reads a price object, or a bare number in the cart's currency", () => {
    expect(readRatePrice({ amount: 495, currency: "gbp" }, "gbp")).toEqual({ amount: 495, currency: "GBP" })
    expect(readRatePrice(150, "eur")).toEqual({ amount: 150, currency: "EUR" })
    expect(readRatePrice(-1, "eur")).toBeNull()
    expect(readRatePrice(undefined, "eur")).toBeNull()
  })
})

describe("countryName", () => {
  it("names countries from ISO codes in either case, and refuses non-countries", () => {
    expect(countryName("gb")).toBe("United Kingdom")
    expect(countryName("JP")).toBe("Japan")
    expect(countryName("zz")).toBeUndefined()
    expect(countryName("")).toBeUndefined()
    expect(countryName("gbr")).toBeUndefined()
  })
})

describe("normalisePhoneNumber", () => {
  it("turns a locally written number into international format using the address's country", () => {
    expect(normalisePhoneNumber("07911 123456", "gb")).toEqual({ ok: true, e164: "+447911123456" })
    expect(normalisePhoneNumber("+44 20 7946 0958", "us")).toEqual({ ok: true, e164: "+442079460958" })
  })

  it("says whether the number is missing or unusable", () => {
    expect(normalisePhoneNumber("  ", "gb")).toEqual({ ok: false, reason: "missing" })
    expect(normalisePhoneNumber("12345", "gb")).toEqual({ ok: false, reason: "invalid" })
  })
})

describe("QuoteCache", () => {
  it("shares one load among concurrent callers and serves the answer until it expires", async () => {
    const cache = new QuoteCache<{ n: number }>({ ttlMs: 60_000, failureTtlMs: 1000 })
    let calls = 0
    const load = async () => {
      calls++
      await new Promise((r) => setTimeout(r, 20))
      return { n: calls }
    }
    const outcomes = await Promise.all(Array.from({ length: 11 }, () => cache.get("cart-1", load)))
    expect(calls).toBe(1)
    expect(outcomes.every((o) => o.ok && o.value.n === 1)).toBe(true)
    await cache.get("cart-1", load)
    expect(calls).toBe(1)
    await cache.get("cart-2", load)
    expect(calls).toBe(2)
  })

  it("remembers a failure briefly instead of calling again at once, and never throws", async () => {
    const cache = new QuoteCache<{ n: number }>({ ttlMs: 60_000, failureTtlMs: 50 })
    let calls = 0
    const failing = async () => {
      calls++
      throw new Error("down")
    }
    const first = await cache.get("k", failing)
    await cache.get("k", failing)
    expect(first.ok).toBe(false)
    expect(calls).toBe(1)
    await new Promise((r) => setTimeout(r, 80))
    await cache.get("k", failing)
    expect(calls).toBe(2)
  })

  it("fingerprints equal states equally, whatever the key order, and different states differently", () => {
    expect(fingerprint({ a: 1, b: [1, 2] })).toBe(fingerprint({ b: [1, 2], a: 1 }))
    expect(fingerprint({ a: 1, b: [1, 2] })).not.toBe(fingerprint({ a: 1, b: [2, 1] }))
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
