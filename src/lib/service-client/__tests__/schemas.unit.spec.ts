import { parseLocationItems, parseQuote, parseTask, readLocationsPage, readTaskLookupPage } from "../schemas"

/** The client's reads of one page: the lookup's (each task parsed, an unreadable one failing it) and the locations'. */
const parseTaskLookup = (value: unknown) => readTaskLookupPage(value).items.map((item) => parseTask(item))
const parseLocations = (value: unknown) => parseLocationItems(readLocationsPage(value).items)

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
    expect(parseLocations([location]).locations[0].fulfilmentLocationId).toBe(7)
    expect(parseLocations({ fulfilmentLocations: [location] }).locations).toHaveLength(1)
    expect(() => parseLocations({ nothing: true })).toThrow(/list/)
  })
})

describe("null and odd optional fields", () => {
  it("reads null in a rate's optional fields as absent, and keeps the rate", () => {
    const quote = parseQuote({
      rates: [
        {
          rateCode: "ND-AM",
          name: null,
          description: null,
          price: null,
          window: null,
          co2Savings: null,
          error: { code: "VEHICLE_FULL" },
        },
        { rateCode: "SVC_COL", price: 0, error: null },
        { rateCode: "ND-STD", price: { amount: 495, currency: "GBP" }, error: false },
      ],
    })
    expect(quote.invalidRates).toEqual([])
    const [full, collection, standard] = quote.rates
    expect(full).toEqual({ rateCode: "ND-AM", error: { code: "VEHICLE_FULL" } })
    for (const key of ["name", "description", "price", "window", "co2Savings"]) {
      expect(full).not.toHaveProperty(key)
    }
    // No error key at all: `"error" in rate` must not call an offerable rate unavailable.
    expect("error" in collection).toBe(false)
    expect("error" in standard).toBe(false)
  })

  it("drops a window that is not {from, to} and keeps the rate", () => {
    const quote = parseQuote({
      rates: [
        { rateCode: "A", window: { from: "2026-01-02T08:00:00Z" } },
        { rateCode: "B", window: "tomorrow" },
        { rateCode: "C", window: { from: 1, to: 2 } },
        { rateCode: "D", window: { from: "2026-01-02T08:00:00Z", to: "2026-01-02T20:00:00Z", tz: "UTC" } },
      ],
    })
    expect(quote.rates.map((r) => r.rateCode)).toEqual(["A", "B", "C", "D"])
    expect(quote.rates.slice(0, 3).map((r) => "window" in r)).toEqual([false, false, false])
    expect(quote.rates[3].window).toEqual({ from: "2026-01-02T08:00:00Z", to: "2026-01-02T20:00:00Z", tz: "UTC" })
  })

  it("reads co2Savings given as a numeric string, and drops one that is not a number", () => {
    const quote = parseQuote({
      rates: [
        { rateCode: "A", co2Savings: "0.42" },
        { rateCode: "B", co2Savings: "a lot" },
        { rateCode: "C", co2Savings: { kg: 1 } },
        { rateCode: "D", co2Savings: 1.1 },
        { rateCode: "E", co2Savings: "" },
      ],
    })
    expect(quote.rates.map((r) => r.co2Savings)).toEqual([0.42, undefined, undefined, 1.1, undefined])
    expect(quote.rates.map((r) => "co2Savings" in r)).toEqual([true, false, false, true, false])
  })

  it("still requires the rate code", () => {
    const quote = parseQuote({ rates: [{ rateCode: null, name: "x" }] })
    expect(quote.rates).toEqual([])
    expect(quote.invalidRates[0].issues[0]).toContain("rateCode")
  })

  it("reads null in a task's optional fields as absent", () => {
    const parsed = parseTask({
      taskId: 7,
      trackingId: null,
      trackingUrl: null,
      status: null,
      createdAt: null,
      taskType: null,
      deliveryType: null,
      rateCode: null,
      courier: null,
    })
    expect(parsed).toEqual({ taskId: 7, courier: null })
    expect(() => parseTask({ taskId: null })).toThrow(/taskId/)
  })

  it("reads null in a location's optional fields as absent, and a name that is not text as no name", () => {
    const { locations, rejected } = parseLocations([
      {
        fulfilmentLocationId: "fl_1",
        collectionEnabled: true,
        externalLocationId: null,
        address: null,
        operatingHours: null,
        name: null,
      },
      { fulfilmentLocationId: "fl_2", collectionEnabled: false, name: { en: "Camden" }, region: "north" },
    ])
    expect(rejected).toEqual([])
    expect(locations[0]).toEqual({ fulfilmentLocationId: "fl_1", collectionEnabled: true })
    expect(locations[1]).toEqual({ fulfilmentLocationId: "fl_2", collectionEnabled: false, region: "north" })
  })

  it("leaves an unreadable location out and reports it, keeping the rest of the list", () => {
    const good = { fulfilmentLocationId: 1, collectionEnabled: true, externalLocationId: "store-1", name: "Store 1" }
    const junk = { fulfilmentLocationId: null, collectionEnabled: "yes" }
    const { locations, rejected } = parseLocations({ data: [good, junk, { ...good, fulfilmentLocationId: 2 }] })
    expect(locations.map((l) => l.fulfilmentLocationId)).toEqual([1, 2])
    expect(locations[0].name).toBe("Store 1")
    expect(rejected).toEqual([
      {
        index: 1,
        item: junk,
        issues: [
          "fulfilmentLocationId: expected a number or a non-empty string",
          expect.stringMatching(/^collectionEnabled: .*boolean/),
        ],
      },
    ])
  })
})

describe("list envelopes", () => {
  const location = { fulfilmentLocationId: 1, collectionEnabled: true }
  const keys = [
    "data",
    "items",
    "tasks",
    "deliveries",
    "locations",
    "fulfilmentLocations",
    "fulfillmentLocations",
    "results",
  ]

  it.each(keys)("reads a location list and a task list wrapped under %s", (key) => {
    expect(parseLocations({ [key]: [location], total: 1 }).locations).toHaveLength(1)
    expect(parseTaskLookup({ [key]: [task], total: 1 })).toHaveLength(1)
  })

  it("reads a task that carries a list of its own as the task, not as an envelope", () => {
    const parsed = parseTaskLookup({ ...task, items: [{ sku: "A" }] })
    expect(parsed.map((t) => t.taskId)).toEqual([1001])
  })

  it("reads an envelope around one task, or around nothing", () => {
    expect(parseTaskLookup({ data: task }).map((t) => t.taskId)).toEqual([1001])
    expect(parseTaskLookup({ data: null })).toEqual([])
    expect(parseTaskLookup("")).toEqual([])
    expect(parseTaskLookup(null)).toEqual([])
  })
})
