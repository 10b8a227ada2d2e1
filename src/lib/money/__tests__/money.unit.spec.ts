import { currencyExponent, majorToMinor, minorToMajor, readRatePrice } from "../money"

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
