import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { request } from "undici"
import { bookingRequest, quoteRequest } from "./service-requests"
import { londonHours } from "../defaults"
import { LastmileSimulator } from "../server"
import type { SimLocation } from "../types"
import { callSimulator, testStore } from "./simulator-calls"

const KEY = "sim_key_for_tests"

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

describe("LastmileSimulator", () => {
  let sim: LastmileSimulator
  let now: number

  beforeEach(async () => {
    now = Date.parse("2026-11-23T12:00:00Z") // a Monday, noon in London
    sim = new LastmileSimulator({
      config: { apiKey: KEY },
      clock: () => now,
      locations: [
        store("a", { "SKU-A": 5, "SKU-B": 1 }),
        store("b", { "SKU-A": 5 }),
        store("c", { "SKU-A": 5, "SKU-B": 5 }, { collectionEnabled: false }),
      ],
    })
    await sim.start()
  })

  afterEach(async () => {
    await sim.stop()
  })

  describe("authentication and validation", () => {
    it("answers 401 without the right x-api-key, and logs the attempt", async () => {
      expect((await call(sim, "POST", "/task/quotes", quoteRequest(), { "x-api-key": "wrong" })).status).toBe(401)
      const missing = await request(`${sim.url}/task/quotes`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      })
      expect(missing.statusCode).toBe(401)
      await missing.body.dump()
      expect(sim.requests("quote").map((r) => r.apiKeyValid)).toEqual([false, false])
    })

    it("answers 400 naming every missing required field", async () => {
      const body = quoteRequest()
      const { status, json } = await call(sim, "POST", "/task/quotes", {
        ...body,
        customer: { firstName: "Ada" },
        order: undefined,
      })
      expect(status).toBe(400)
      expect(json.error.details.missing).toEqual(
        expect.arrayContaining([
          "customer.lastName",
          "customer.email",
          "customer.phoneNumber",
          "order.merchantOrderId",
          "order.merchantOrderName",
        ])
      )
    })

    it("answers 400 to a phone number that is not in international format", async () => {
      const body = quoteRequest()
      body.customer.phoneNumber = "07700 900123"
      const { status, json } = await call(sim, "POST", "/task/quotes", body)
      expect(status).toBe(400)
      expect(json.error.message).toContain("customer.phoneNumber")
    })

    it("answers 415 to a body sent without a JSON content type", async () => {
      const { status } = await call(sim, "POST", "/task/quotes", JSON.stringify(quoteRequest()), {
        "content-type": "text/plain",
      })
      expect(status).toBe(415)
    })

    it("requires rateCode to book, and merchantLocationId to book collection", async () => {
      const { json } = await call(sim, "POST", "/task/deliveries", quoteRequest())
      expect(json.error.details.missing).toContain("rateCode")
      const collection = await call(sim, "POST", "/task/deliveries", bookingRequest("SVC_COL"))
      expect(collection.json.error.details.missing).toContain("collection.merchantLocationId")
    })
  })

  describe("quotes", () => {
    it("offers delivery and one SVC_COL rate per collection-enabled store with stock for every line", async () => {
      const { status, json } = await call(
        sim,
        "POST",
        "/task/quotes",
        quoteRequest({
          lines: [
            ["SKU-A", 2],
            ["SKU-B", 1],
          ],
        })
      )
      expect(status).toBe(200)
      expect(json.eligibility).toBe("FULL")
      const delivery = json.rates.find((r: { rateCode: string }) => r.rateCode === "NEXT_DAY")
      expect(delivery).toMatchObject({
        price: { amount: 495, currency: "GBP" },
        co2Savings: expect.any(Number),
        window: { from: expect.any(String), to: expect.any(String) },
      })
      // b lacks SKU-B, c has collection disabled: only a qualifies.
      const collection = json.rates.filter((r: { rateCode: string }) => r.rateCode === "SVC_COL")
      expect(collection.map((r: { merchantLocationId: string }) => r.merchantLocationId)).toEqual(["store-a"])
      expect(collection[0].description).toContain("Store A, a High Street")
    })

    it("counts the quantity of a line against the store's stock", async () => {
      const { json } = await call(sim, "POST", "/task/quotes", quoteRequest({ lines: [["SKU-B", 2]] }))
      expect(json.rates.filter((r: { rateCode: string }) => r.rateCode === "SVC_COL")).toEqual([])
    })

    it("lists unavailable stores as SVC_COL rates with an error, and then answers PARTIAL", async () => {
      sim.configure({ collection: { unavailable: "error" } })
      const { json } = await call(sim, "POST", "/task/quotes", quoteRequest({ lines: [["SKU-B", 1]] }))
      expect(json.eligibility).toBe("PARTIAL")
      const errors = json.rates
        .filter((r: { error?: unknown }) => r.error)
        .map((r: { merchantLocationId: string; error: { code: string } }) => [r.merchantLocationId, r.error.code])
      expect(errors).toEqual([
        ["store-b", "OUT_OF_STOCK"],
        ["store-c", "COLLECTION_DISABLED"],
      ])
    })

    it("answers PARTIAL with an error on the delivery rate where delivery does not reach", async () => {
      const { json } = await call(sim, "POST", "/task/quotes", quoteRequest({ postcode: "IV1 1AA" }))
      expect(json.eligibility).toBe("PARTIAL")
      expect(json.rates[0]).toMatchObject({ rateCode: "NEXT_DAY", error: { code: "ROUTE_NOT_SERVED" } })
    })

    it("answers an empty rates list for a route it cannot serve", async () => {
      sim.configure({ unservedPostcodePrefixes: ["ZE"] })
      const { status, json } = await call(sim, "POST", "/task/quotes", quoteRequest({ postcode: "ZE1 0AA" }))
      expect(status).toBe(200)
      expect(json.rates).toEqual([])
    })

    it("can give the collection price as a bare number and leave the store field off", async () => {
      sim.configure({ collection: { priceForm: "number", locationField: false, price: 150 } })
      const { json } = await call(sim, "POST", "/task/quotes", quoteRequest())
      const collection = json.rates.find((r: { rateCode: string }) => r.rateCode === "SVC_COL")
      expect(collection.price).toBe(150)
      expect(collection).not.toHaveProperty("merchantLocationId")
    })

    it("answers on the short path POST /quotes too", async () => {
      expect((await call(sim, "POST", "/quotes", quoteRequest())).status).toBe(200)
    })
  })

  describe("collection cutoff in the store's local time", () => {
    const lines: [string, number][] = [["SKU-A", 1]]

    async function collectionRate(at: string, location: Partial<SimLocation>) {
      now = Date.parse(at)
      sim.setLocations([store("a", { "SKU-A": 5 }, { operatingHours: londonHours(), ...location })])
      const { json } = await call(sim, "POST", "/task/quotes", quoteRequest({ lines }))
      return json.rates.find((r: { rateCode: string }) => r.rateCode === "SVC_COL")
    }

    it("offers same-day collection before the cutoff", async () => {
      const rate = await collectionRate("2026-11-23T12:00:00Z", {})
      expect(rate.description).toContain("Ready for collection today within 2 hours")
      expect(rate.window.from).toBe("2026-11-23T14:00:00.000Z")
    })

    it("keeps the rate past the cutoff (45 min before closing) and names the next opening", async () => {
      const rate = await collectionRate("2026-11-23T17:20:00Z", {})
      expect(rate).toBeDefined()
      expect(rate.error).toBeUndefined()
      expect(rate.description).toContain("ready for collection tomorrow (Tue 24 Nov) from 09:00")
      expect(rate.window.from).toBe("2026-11-24T09:00:00.000Z")
    })

    it("lets a location's own cutoff override the default", async () => {
      const rate = await collectionRate("2026-11-23T17:20:00Z", { collectionCutoffMinutes: 15 })
      expect(rate.description).toContain("today within")
    })

    it("lets a location's own after-cutoff text replace the generated one", async () => {
      const rate = await collectionRate("2026-11-23T17:20:00Z", {
        afterCutoffDescription: "Collect from 9am tomorrow.",
      })
      expect(rate.description).toContain("Collect from 9am tomorrow.")
    })

    it("skips closed days: Saturday evening points to Sunday's later opening", async () => {
      const rate = await collectionRate("2026-11-28T17:30:00Z", {})
      expect(rate.description).toContain("tomorrow (Sun 29 Nov) from 11:00")
    })

    it("reads the clock in the store's zone, not the server's (New York, and London in summer time)", async () => {
      const ny = await collectionRate("2026-11-23T22:30:00Z", {
        operatingHours: { ...londonHours(), timezone: "America/New_York" },
      })
      expect(ny.description).toContain("tomorrow (Tue 24 Nov) from 09:00")
      expect(ny.window.from).toBe("2026-11-24T14:00:00.000Z")

      const summer = await collectionRate("2026-07-06T16:30:00Z", {}) // 17:30 BST
      expect(summer.description).toContain("tomorrow (Tue 7 Jul) from 09:00")
      expect(summer.window.from).toBe("2026-07-07T08:00:00.000Z")
    })
  })

  describe("bookings", () => {
    it("books a quoted rate and answers the spec's task fields", async () => {
      await call(sim, "POST", "/task/quotes", quoteRequest())
      const { status, json } = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      expect(status).toBe(201)
      expect(json).toMatchObject({
        taskId: expect.any(Number),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        taskType: "DELIVERY",
        status: { taskId: json.taskId, value: "NOT_STARTED" },
        deliveryType: "NEXT_DAY",
        trackingId: expect.stringMatching(/^LM/),
        trackingUrl: `${sim.url}/track/${json.trackingId}`,
        rateCode: "NEXT_DAY",
      })
    })

    it("refuses a rate code that no quote for this merchantOrderId offered", async () => {
      const { status, json } = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      expect(status).toBe(422)
      expect(json.error.code).toBe("RATE_NOT_QUOTED")
    })

    it("refuses collection from a store the quote did not offer", async () => {
      await call(sim, "POST", "/task/quotes", quoteRequest())
      const body = bookingRequest("SVC_COL")
      body.collection.merchantLocationId = "store-c"
      expect((await call(sim, "POST", "/task/deliveries", body)).json.error.code).toBe("RATE_NOT_QUOTED")
      body.collection.merchantLocationId = "store-a"
      expect((await call(sim, "POST", "/task/deliveries", body)).status).toBe(201)
    })

    it("refuses a quote older than about 2 minutes", async () => {
      await call(sim, "POST", "/task/quotes", quoteRequest())
      now += 121_000
      const { status, json } = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      expect(status).toBe(422)
      expect(json.error.code).toBe("QUOTE_EXPIRED")
    })

    it("de-duplicates on merchantOrderId: the repeat answers the same task and creates nothing", async () => {
      await call(sim, "POST", "/task/quotes", quoteRequest())
      const first = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      const again = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      expect(again.status).toBe(200)
      expect(again.json.taskId).toBe(first.json.taskId)
      expect(sim.tasks()).toHaveLength(1)
    })

    it("can answer a repeated booking with 409 instead", async () => {
      sim.configure({ duplicateBooking: "conflict" })
      await call(sim, "POST", "/task/quotes", quoteRequest())
      await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      expect((await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))).status).toBe(409)
      expect(sim.tasks()).toHaveLength(1)
    })

    it("looks a booking up by merchantOrderId as a list, a single task or an envelope", async () => {
      await call(sim, "POST", "/task/quotes", quoteRequest())
      const booked = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      const list = await call(sim, "GET", "/task/deliveries?merchantOrderId=order_1")
      expect(list.json).toEqual([expect.objectContaining({ taskId: booked.json.taskId })])
      expect((await call(sim, "GET", "/task/deliveries?merchantOrderId=nope")).json).toEqual([])

      sim.configure({ lookupShape: "single" })
      expect((await call(sim, "GET", "/task/deliveries?merchantOrderId=order_1")).json.taskId).toBe(booked.json.taskId)
      expect((await call(sim, "GET", "/task/deliveries?merchantOrderId=nope")).status).toBe(404)

      sim.configure({ lookupShape: "envelope" })
      expect((await call(sim, "GET", "/task/deliveries?merchantOrderId=order_1")).json.tasks).toHaveLength(1)
    })

    it("books a return as a RETURN task without needing a quote", async () => {
      const { status, json } = await call(sim, "POST", "/task/returns", bookingRequest("RETURN", {}))
      expect(status).toBe(201)
      expect(json.taskType).toBe("RETURN")
    })
  })

  describe("locations", () => {
    it("lists fulfilment locations and switches collection with PATCH", async () => {
      const list = await call(sim, "GET", "/fulfilment-locations")
      expect(list.json.map((l: { externalLocationId: string }) => l.externalLocationId)).toEqual([
        "store-a",
        "store-b",
        "store-c",
      ])
      expect(list.json[0]).toMatchObject({
        collectionEnabled: true,
        address: expect.any(Object),
        operatingHours: expect.any(Object),
      })

      const patched = await call(sim, "PATCH", "/fulfilment/fulfilment-locations/fl_a", { collectionEnabled: false })
      expect(patched.json.collectionEnabled).toBe(false)
      const { json } = await call(sim, "POST", "/task/quotes", quoteRequest())
      expect(
        json.rates
          .filter((r: { rateCode: string }) => r.rateCode === "SVC_COL")
          .map((r: { merchantLocationId: string }) => r.merchantLocationId)
      ).toEqual(["store-b"])
    })

    it("refuses a PATCH without a boolean and answers 404 for an unknown location", async () => {
      expect(
        (await call(sim, "PATCH", "/fulfilment/fulfilment-locations/fl_a", { collectionEnabled: "yes" })).status
      ).toBe(400)
      expect(
        (await call(sim, "PATCH", "/fulfilment/fulfilment-locations/fl_zz", { collectionEnabled: true })).status
      ).toBe(404)
    })
  })

  describe("status changes and webhooks", () => {
    let receiver: Server
    let received: { status: number; body: Record<string, unknown> }[]
    let answers: number[]

    beforeEach(async () => {
      received = []
      answers = [500, 503, 200]
      receiver = createServer((req, res) => {
        let raw = ""
        req.on("data", (c) => (raw += c))
        req.on("end", () => {
          const status = answers.shift() ?? 200
          received.push({ status, body: JSON.parse(raw) })
          res.writeHead(status).end()
        })
      })
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
      sim.configure({
        webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/lastmile/token`,
        webhook: { retryBaseMs: 5, retryMaxMs: 20, maxAttempts: 10, payload: "full" },
      })
    })

    afterEach(async () => {
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    })

    it("posts a webhook on each status change and repeats it until it gets a 200", async () => {
      await call(sim, "POST", "/task/quotes", quoteRequest())
      const { json: task } = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))

      sim.advanceTask(task.taskId)
      await sim.webhooks.idle()

      expect(received.map((r) => r.status)).toEqual([500, 503, 200])
      expect(received[2].body).toMatchObject({
        taskId: task.taskId,
        merchantOrderId: "order_1",
        status: { value: "ASSIGNED" },
      })
      expect(sim.webhooks.attempts.map((a) => a.attempt)).toEqual([1, 2, 3])
    })

    it("moves a task along the flow, and to any value on command", async () => {
      await call(sim, "POST", "/task/quotes", quoteRequest())
      const { json: task } = await call(sim, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      answers = []
      sim.advanceTask(task.taskId)
      sim.advanceTask(task.taskId)
      sim.setTaskStatus(task.taskId, "HELD_AT_DEPOT")
      await sim.webhooks.idle()
      const { json } = await call(sim, "GET", "/task/deliveries?merchantOrderId=order_1")
      expect(json[0].status.value).toBe("HELD_AT_DEPOT")
      expect(received.map((r) => (r.body.status as { value: string }).value)).toEqual([
        "ASSIGNED",
        "PICKED_UP",
        "HELD_AT_DEPOT",
      ])
    })
  })
})
