import { bookingRequest, quoteRequest } from "./service-requests"
import { alwaysOpenHours, defaultConfig, strictProfile } from "../defaults"
import { LastmileSimulator } from "../server"
import { callSimulator, testStore } from "./simulator-calls"

const KEY = "sim_key_for_strict_tests"

const store = testStore

async function call(
  sim: LastmileSimulator,
  method: "GET" | "POST" | "PATCH",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<{ status: number; json: any }> {
  return callSimulator(sim, KEY, method, path, body, headers)
}

interface Rate {
  rateCode: string
  name?: string
  price?: unknown
  error?: unknown
  [key: string]: unknown
}

const delivery = (rates: Rate[]) => rates.filter((r) => r.rateCode !== "SVC_COL")
const collection = (rates: Rate[]) => rates.filter((r) => r.rateCode === "SVC_COL")

describe("LastmileSimulator, strict profile", () => {
  let sim: LastmileSimulator
  let now: number

  beforeEach(async () => {
    now = Date.parse("2026-11-23T12:00:00Z") // a Monday, noon in London
    sim = new LastmileSimulator({
      profile: "strict",
      config: { apiKey: KEY },
      clock: () => now,
      locations: [
        store("a", { "SKU-A": 5, "SKU-B": 1 }),
        store("b", { "SKU-A": 5 }),
        store("c", { "SKU-A": 5, "SKU-B": 5 }, { collectionEnabled: false }),
        store("d", { "SKU-A": 5 }),
        store("e", { "SKU-A": 5 }),
      ],
    })
    await sim.start()
  })

  afterEach(async () => {
    await sim.stop()
  })

  const quote = async (deliveryType = "NEXT_DAY", merchantOrderId = "order_1") => {
    const body = quoteRequest({ deliveryType })
    body.order.merchantOrderId = merchantOrderId
    const { status, json } = await call(sim, "POST", "/task/quotes", body)
    expect(status).toBe(200)
    return json as { eligibility: string; rates: Rate[] }
  }

  describe("quotes", () => {
    it("offers two next-day rates and one with an error and no price, none naming its delivery type", async () => {
      const { eligibility, rates } = await quote()
      const offered = delivery(rates).filter((r) => r.error === undefined)
      const errored = delivery(rates).filter((r) => r.error !== undefined)
      expect(offered.map((r) => [r.name, r.price])).toEqual([
        ["Next day", { amount: 495, currency: "GBP" }],
        ["Next day eco", { amount: 395, currency: "GBP" }],
      ])
      expect(errored).toEqual([
        expect.objectContaining({
          name: "Next day morning",
          price: null,
          error: { code: "VEHICLE_FULL", details: { slots: 0 } },
        }),
      ])
      expect(rates.some((r) => "deliveryType" in r)).toBe(false)
      expect(offered[0]).toMatchObject({ description: null, co2Savings: 0.42, window: { from: expect.any(String) } })
      expect(errored[0].co2Savings).toBeNull()
      expect(eligibility).toBe("PARTIAL")
    })

    it("mints new delivery rate codes for every quote", async () => {
      const first = delivery((await quote()).rates).map((r) => r.rateCode)
      const second = delivery((await quote()).rates).map((r) => r.rateCode)
      expect(first).toEqual([
        expect.stringMatching(/^ND-STD-q\d+$/),
        expect.stringMatching(/^ND-ECO-/),
        expect.stringMatching(/^ND-AM-/),
      ])
      expect(second.filter((code) => first.includes(code))).toEqual([])
    })

    it("quotes only the requested delivery type: same day has only SD-EVE", async () => {
      const { rates } = await quote("SAME_DAY")
      expect(delivery(rates)).toEqual([
        expect.objectContaining({
          rateCode: expect.stringMatching(/^SD-EVE-q\d+$/),
          name: "Same day evening",
          price: { amount: 895, currency: "GBP" },
          window: { from: "2026-11-23T18:00:00.000Z", to: "2026-11-23T22:00:00.000Z" },
        }),
      ])
      // Collection rates come with every quote.
      expect(collection(rates).length).toBeGreaterThan(0)
      expect((await call(sim, "POST", "/task/quotes", quoteRequest({ deliveryType: "BY_DRONE" }))).status).toBe(400)
    })

    it("gives collection a bare-number price, no store field, and null for what a rate does not have", async () => {
      const { rates } = await quote()
      const stores = collection(rates)
      expect(stores).toHaveLength(5)
      for (const rate of stores) {
        expect(typeof rate.price).toBe("number")
        expect(rate).not.toHaveProperty("merchantLocationId")
        expect(rate.co2Savings).toBeNull()
      }
      // Store C does not offer collection: listed with an error, and no readiness window.
      const closed = stores.find((r) => String(r.name) === "Store C")
      expect(closed).toMatchObject({ error: { code: "COLLECTION_DISABLED" }, window: null })
      const open = stores.find((r) => String(r.name) === "Store A")
      expect(open?.error).toBeUndefined()
      expect(open?.window).toEqual({ from: expect.any(String), to: expect.any(String) })
    })
  })

  describe("bookings", () => {
    it("books the newest quote's code, answers without a tracking URL, and refuses an unquoted code", async () => {
      await quote()
      const newest = delivery((await quote()).rates).find((r) => r.name === "Next day")!.rateCode

      const unquoted = await call(sim, "POST", "/task/deliveries", bookingRequest("ND-STD"))
      expect(unquoted.status).toBe(422)
      expect(unquoted.json.error.code).toBe("RATE_NOT_QUOTED")
      const errored = delivery((await quote()).rates).find((r) => r.error)!.rateCode
      expect((await call(sim, "POST", "/task/deliveries", bookingRequest(errored))).status).toBe(422)

      const booked = await call(sim, "POST", "/task/deliveries", bookingRequest(newest))
      expect(booked.status).toBe(201)
      expect(booked.json).toMatchObject({
        rateCode: newest,
        trackingId: expect.stringMatching(/^LM/),
        trackingUrl: null,
      })
      expect(sim.tasks()).toHaveLength(1)

      // The lookup (a single task) still shows the tracking URL; a repeat is a conflict.
      const found = await call(sim, "GET", "/task/deliveries?merchantOrderId=order_1")
      expect(found.json).toMatchObject({
        taskId: booked.json.taskId,
        trackingUrl: `${sim.url}/track/${booked.json.trackingId}`,
      })
      expect((await call(sim, "POST", "/task/deliveries", bookingRequest(newest))).status).toBe(409)
      expect((await call(sim, "GET", "/task/deliveries?merchantOrderId=nope")).status).toBe(404)
    })

    it("books a code from an earlier recent quote of the same order too", async () => {
      const earlier = delivery((await quote()).rates)[1].rateCode
      await quote()
      expect((await call(sim, "POST", "/task/deliveries", bookingRequest(earlier))).status).toBe(201)
    })

    it("refuses a booking's order.note, a field the spec does not show, unless told the service takes it", async () => {
      const newest = delivery((await quote()).rates).find((r) => r.name === "Next day")!.rateCode
      const withNote = bookingRequest(newest)
      const noted = { ...withNote, order: { ...withNote.order, note: "Gate code 4821" } }

      const refused = await call(sim, "POST", "/task/deliveries", noted)
      expect(refused.status).toBe(400)
      expect(refused.json.error).toMatchObject({ code: "VALIDATION_ERROR", details: { unknown: ["order.note"] } })
      // The refusal does not repeat the shopper's words.
      expect(JSON.stringify(refused.json)).not.toContain("4821")
      expect(sim.tasks()).toHaveLength(0)

      sim.configure({ orderNote: "accept" })
      const booked = await call(sim, "POST", "/task/deliveries", noted)
      expect(booked.status).toBe(201)
      expect(sim.tasks()[0].note).toBe("Gate code 4821")
    })
  })

  describe("locations", () => {
    it("lists locations in pages, with the spec's fields only and an unreadable item at the end", async () => {
      const first = await call(sim, "GET", "/fulfilment-locations")
      expect(first.json.next).toBe("/fulfilment-locations?page=2")
      expect(first.json.data.map((l: { externalLocationId: string }) => l.externalLocationId)).toEqual([
        "store-a",
        "store-b",
        "store-c",
        "store-d",
      ])
      expect(Object.keys(first.json.data[0]).sort()).toEqual([
        "address",
        "collectionEnabled",
        "externalLocationId",
        "fulfilmentLocationId",
        "operatingHours",
      ])
      expect(first.json.data[0].operatingHours).toBeNull()

      const second = await call(sim, "GET", first.json.next)
      expect(second.json).toEqual({
        data: [
          expect.objectContaining({ externalLocationId: "store-e" }),
          { fulfilmentLocationId: null, collectionEnabled: "yes" },
        ],
        next: null,
      })
      expect((await call(sim, "GET", "/fulfilment-locations?page=9")).json).toEqual({ data: [], next: null })
      expect((await call(sim, "GET", "/fulfilment-locations?page=0")).status).toBe(400)
    })

    it("pages by locationsPageSize", async () => {
      sim.configure({ locationsPageSize: 2 })
      const pages: unknown[][] = []
      let next: string | null = "/fulfilment-locations"
      while (next) {
        const page: { json: { data: unknown[]; next: string | null } } = await call(sim, "GET", next)
        pages.push(page.json.data)
        next = page.json.next
      }
      expect(pages.map((p) => p.length)).toEqual([2, 2, 2])
    })
  })

  describe("injected faults", () => {
    it("answers a 4xx fault as a refusal, a 5xx as a server error and a 429 as rate limiting", async () => {
      sim.addFault({ operation: "quote", kind: "status", status: 422, times: 1 })
      sim.addFault({ operation: "quote", kind: "status", status: 503, times: 1 })
      sim.addFault({ operation: "quote", kind: "status", status: 429, times: 1 })
      const codes = []
      for (let i = 0; i < 3; i++) {
        const { status, json } = await call(sim, "POST", "/task/quotes", quoteRequest())
        codes.push([status, json.error.code])
      }
      expect(codes).toEqual([
        [422, "REJECTED"],
        [503, "SERVER_ERROR"],
        [429, "RATE_LIMITED"],
      ])
    })
  })

  describe("composing profiles", () => {
    it("applies the profile first and the config on top", () => {
      const custom = new LastmileSimulator({ profile: "strict", config: { apiKey: KEY, lookupShape: "list" } })
      expect(custom.state.config).toMatchObject({
        lookupShape: "list",
        rateCodes: "per_quote",
        apiKey: KEY,
        collection: { priceForm: "number", locationField: false, unavailable: "error", defaultCutoffMinutes: 45 },
      })
      expect(new LastmileSimulator().state.config).toEqual(defaultConfig())
      expect(strictProfile().deliveryServices?.map((s) => s.rateCode)).toEqual(["ND-STD", "ND-ECO", "ND-AM", "SD-EVE"])
    })

    it("switches profile through PATCH /__sim/config, keeping the API key, with other fields on top", async () => {
      const toDefault = await call(sim, "PATCH", "/__sim/config", { profile: "default", junkLocation: true })
      expect(toDefault.json).toMatchObject({ rateCodes: "stable", locationsShape: "array", junkLocation: true })
      expect(sim.state.config.apiKey).toBe(KEY)
      expect((await quote()).rates[0]).toMatchObject({ rateCode: "NEXT_DAY", deliveryType: "NEXT_DAY" })

      const fields = await call(sim, "PATCH", "/__sim/config", {
        bookingAnswer: "no_tracking_url",
        rateDeliveryTypeField: false,
        locationsShape: "paged",
        locationFields: "spec",
      })
      expect(fields.status).toBe(200)
      expect(sim.state.config).toMatchObject({ bookingAnswer: "no_tracking_url", locationsShape: "paged" })

      expect((await call(sim, "PATCH", "/__sim/config", { profile: "lenient" })).status).toBe(400)
      await call(sim, "PATCH", "/__sim/config", { profile: "strict" })
      expect(sim.state.config).toMatchObject({ rateCodes: "per_quote", junkLocation: true, apiKey: KEY })
    })
  })
})

describe("LastmileSimulator, the new options on the default profile", () => {
  let sim: LastmileSimulator

  beforeEach(async () => {
    sim = new LastmileSimulator({ config: { apiKey: KEY }, locations: [store("a", { "SKU-A": 5 })] })
    await sim.start()
  })

  afterEach(async () => {
    await sim.stop()
  })

  it("quotes only the services of the requested delivery type", async () => {
    const services = defaultConfig().deliveryServices
    sim.configure({
      deliveryServices: [
        ...services,
        { ...services[0], deliveryType: "SAME_DAY", rateCode: "SAME_DAY", name: "Same day", daysAhead: 0 },
      ],
    })
    const { json } = await call(sim, "POST", "/task/quotes", quoteRequest())
    expect(json.rates.map((r: Rate) => r.rateCode)).toEqual(["NEXT_DAY", "SVC_COL"])
    expect(json.eligibility).toBe("FULL")
  })

  it("quotes an unavailable service with its error and without a price", async () => {
    const [service] = defaultConfig().deliveryServices
    sim.configure({ deliveryServices: [{ ...service, unavailable: "No vans today" }] })
    const { json } = await call(sim, "POST", "/task/quotes", quoteRequest())
    expect(json.rates[0]).toMatchObject({ rateCode: "NEXT_DAY", error: "No vans today" })
    expect(json.rates[0]).not.toHaveProperty("price")
    expect(json.eligibility).toBe("PARTIAL")
    expect((await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))).status).toBe(422)
  })

  it("answers the booking with the tracking URL and lists named locations, as before", async () => {
    await call(sim, "POST", "/task/quotes", quoteRequest())
    const booked = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
    expect(booked.json.trackingUrl).toBe(`${sim.url}/track/${booked.json.trackingId}`)
    const { json } = await call(sim, "GET", "/fulfilment-locations")
    expect(json).toEqual([
      expect.objectContaining({ name: "Store A", deliveryEnabled: false, collectionCutoffMinutes: 45 }),
    ])
    expect(json[0].operatingHours).toEqual(alwaysOpenHours())
  })
})
