import { parseLocations, parseQuote, parseTask, parseTaskLookup } from "../schemas"

const task = {
  taskId: 1001,
  createdAt: "2026-11-21T10:00:00.123Z",
  taskType: "DELIVERY",
  status: { taskId: 1001, value: "NOT_STARTED" },
  deliveryType: "NEXT_DAY",
  trackingId: "LMABC",
  trackingUrl: "https://track.example/LMABC",
  rateCode: "NEXT_DAY",
}

describe("service schemas", () => {
  describe("parseQuote", () => {
    it("accepts price as an object and as a bare number", () => {
      const quote = parseQuote({
        eligibility: "FULL",
        rates: [
          { rateCode: "NEXT_DAY", name: "Next day", price: { amount: 495, currency: "GBP" } },
          { rateCode: "SVC_COL", name: "Camden store", price: 0 },
        ],
      })
      expect(quote.rates.map((r) => r.price)).toEqual([{ amount: 495, currency: "GBP" }, 0])
      expect(quote.invalidRates).toEqual([])
    })

    it("accepts an error of any shape and keeps unknown fields", () => {
      const quote = parseQuote({
        eligibility: "PARTIAL",
        quoteId: "q_1",
        rates: [
          { rateCode: "A", error: "no stock" },
          { rateCode: "B", error: { code: "X", reasons: ["a"] }, merchantLocationId: "store-1" },
        ],
      })
      expect(quote.quoteId).toBe("q_1")
      expect(quote.rates[0].error).toBe("no stock")
      expect(quote.rates[1]).toMatchObject({ error: { code: "X" }, merchantLocationId: "store-1" })
    })

    it("sets a malformed rate aside instead of failing the whole quote", () => {
      const quote = parseQuote({
        rates: [{ name: "no code" }, { rateCode: "NEXT_DAY", price: "cheap" }, { rateCode: "OK" }],
      })
      expect(quote.rates.map((r) => r.rateCode)).toEqual(["OK"])
      expect(quote.invalidRates.map((r) => r.index)).toEqual([0, 1])
      expect(quote.invalidRates[0].issues[0]).toContain("rateCode")
    })

    it("rejects an answer without a rates list", () => {
      expect(() => parseQuote({ eligibility: "FULL" })).toThrow(/rates/)
      expect(() => parseQuote("nonsense")).toThrow()
    })

    it("treats an empty rates list as a valid 'route not served' answer", () => {
      expect(parseQuote({ eligibility: "PARTIAL", rates: [] }).rates).toEqual([])
    })
  })

  describe("parseTaskLookup", () => {
    it("accepts a list, a single task, an envelope and an empty answer", () => {
      expect(parseTaskLookup([task])).toHaveLength(1)
      expect(parseTaskLookup(task)[0].taskId).toBe(1001)
      expect(parseTaskLookup({ tasks: [task, { ...task, taskId: 1002 }] })).toHaveLength(2)
      expect(parseTaskLookup({ data: [task] })).toHaveLength(1)
      expect(parseTaskLookup([])).toEqual([])
      expect(parseTaskLookup(undefined)).toEqual([])
    })

    it("rejects a task without a taskId", () => {
      expect(() => parseTaskLookup([{ trackingId: "x" }])).toThrow(/taskId/)
    })
  })

  it("parseTask reads a status given as a bare string and keeps extra fields", () => {
    const parsed = parseTask({ ...task, status: "IN_TRANSIT", driver: { name: "Sam" } })
    expect(parsed.status).toEqual({ value: "IN_TRANSIT" })
    expect(parsed.driver).toEqual({ name: "Sam" })
  })

  it("parseLocations accepts a bare list and an envelope", () => {
    const location = {
      fulfilmentLocationId: 7,
      collectionEnabled: true,
      externalLocationId: "store-1",
      address: {},
      operatingHours: {},
    }
    expect(parseLocations([location])[0].fulfilmentLocationId).toBe(7)
    expect(parseLocations({ fulfilmentLocations: [location] })).toHaveLength(1)
    expect(() => parseLocations({ nothing: true })).toThrow(/list/)
  })
})
