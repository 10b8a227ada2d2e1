import { RatesAnswers, answerTtlMs } from "../rates-answers"
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

describe("the rates answers kept", () => {
  const priced = (n: number) => async () => ({ answer: answer(rate({ amount: n })), ttlMs: TTL })

  it("prices a cart state once, however many ask at the same time, and answers it again from the JSON kept", async () => {
    const answers = new RatesAnswers()
    let pricings = 0
    const price = async () => {
      pricings++
      await Promise.resolve()
      return { answer: answer(rate({})), ttlMs: TTL }
    }
    const kept = await Promise.all([1, 2, 3].map(() => answers.get("cart_1", "state-a", price)))
    expect(pricings).toBe(1)
    expect(await answers.get("cart_1", "state-a", price)).toBe(kept[0])
    expect(JSON.parse(kept[0].body)).toEqual(answer(rate({})))
    expect(pricings).toBe(1)
  })

  it("keeps one answer per cart: a new state replaces the last, and another cart keeps its own", async () => {
    const answers = new RatesAnswers()
    await answers.get("cart_1", "state-a", priced(1))
    await answers.get("cart_1", "state-b", priced(2))
    await answers.get("cart_2", "state-a", priced(3))
    expect(answers.size.answers).toBe(2)
    const amount = async (state: string, n: number) =>
      (JSON.parse((await answers.get("cart_1", state, priced(n))).body) as LastmileRatesResponse).rates[0].amount
    expect(await amount("state-b", 9)).toBe(2)
    expect(await amount("state-a", 4)).toBe(4)
  })

  it("keeps nothing of a failed pricing or of an answer already expired, and stays within its size", async () => {
    const answers = new RatesAnswers({ max: 2, maxBytes: 1_000_000 })
    await expect(answers.get("cart_1", "s", () => Promise.reject(new Error("down")))).rejects.toThrow("down")
    await answers.get("cart_1", "s", async () => ({ answer: answer(), ttlMs: 0 }))
    expect(answers.size.answers).toBe(0)
    for (const cart of ["a", "b", "c"]) {
      await answers.get(cart, "s", priced(1))
    }
    expect(answers.size.answers).toBe(2)
    expect(answers.size.bytes).toBeGreaterThan(0)
  })
})
