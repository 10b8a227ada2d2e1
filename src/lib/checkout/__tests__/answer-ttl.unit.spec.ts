import { answerTtlMs } from "../answer-ttl"
import type { LastmileOptionRate, LastmileRatesResponse } from "../option-rate"

const NOW = Date.parse("2026-11-22T12:00:00.000Z")
const TTL = 30_000

function rate(overrides: Partial<LastmileOptionRate>): LastmileOptionRate {
  return {
    shipping_option_id: "so_1",
    name: "Next day",
    type: "delivery",
    rate_name: "Next day eco",
    amount: 4.95,
    currency_code: "gbp",
    is_tax_inclusive: false,
    description: null,
    window: null,
    co2_savings: null,
    stock_location_id: null,
    stock_location: null,
    merchant_location_id: null,
    kept: false,
    available: true,
    unavailable_reason: null,
    unavailable_code: null,
    unavailable_fields: [],
    eligibility: "FULL",
    fallback: false,
    rates: [],
    quoted_at: new Date(NOW).toISOString(),
    ...overrides,
  }
}

const answer = (...rates: LastmileOptionRate[]): LastmileRatesResponse => ({
  cart_id: "cart_1",
  currency_code: "gbp",
  eligibility: "FULL",
  rates,
})

describe("how long a rates answer is served again", () => {
  it("lives as long as a quote made just now", () => {
    expect(answerTtlMs(answer(rate({})), TTL, NOW)).toBe(TTL)
  })

  it("ends when its oldest quote expires, so no rate outlives its quote", () => {
    const older = rate({ quoted_at: new Date(NOW - 20_000).toISOString() })
    expect(answerTtlMs(answer(rate({}), older), TTL, NOW)).toBe(10_000)
    const expired = rate({ quoted_at: new Date(NOW - 31_000).toISOString() })
    expect(answerTtlMs(answer(expired), TTL, NOW)).toBe(0)
  })

  it("lasts only seconds when an option was priced without a quote (the fallback, an outage, details to complete)", () => {
    const fallback = rate({ fallback: true, quoted_at: null, description: "Delivery price estimated" })
    expect(answerTtlMs(answer(rate({}), fallback), TTL, NOW)).toBe(5_000)
    expect(answerTtlMs(answer(), TTL, NOW)).toBe(5_000)
  })

  it("never outlives the quote cache's own setting", () => {
    expect(answerTtlMs(answer(rate({ quoted_at: null })), 2_000, NOW)).toBe(2_000)
    expect(answerTtlMs(answer(rate({})), 0, NOW)).toBe(0)
  })
})
