import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { LastmileSimulator, alwaysOpenHours } from "../../../../packages/simulator/src"
import { bookingRequest, quoteRequest } from "../../../../integration-tests/helpers/service-requests"
import { LastmileClient } from "../client"
import type { LastmileClientOptions } from "../client-options"
import {
  LastmileAuthenticationError,
  LastmileBookingOutcomeUnknownError,
  LastmileError,
  LastmileInvalidResponseError,
  LastmileRateLimitError,
  LastmileRejectedError,
  LastmileServerError,
  LastmileTimeoutError,
  LastmileUnreachableError,
  describeRefusal,
} from "../errors"
import { outcomeOfError } from "../../booking/booking-outcome"

const KEY = "lm_live_key_abcdef123456"

describe("LastmileClient against the simulator", () => {
  let sim: LastmileSimulator
  let client: LastmileClient
  const logLines: string[] = []

  function makeClient(overrides: Partial<LastmileClientOptions> = {}): LastmileClient {
    return new LastmileClient({
      apiKey: KEY,
      baseUrl: sim.url,
      retry: { baseDelayMs: 5, maxDelayMs: 2000 },
      logger: { debug: (m) => logLines.push(m), warn: (m) => logLines.push(m) },
      ...overrides,
    })
  }

  beforeEach(async () => {
    logLines.length = 0
    sim = new LastmileSimulator({
      config: { apiKey: KEY },
      locations: [
        {
          fulfilmentLocationId: "fl_1",
          externalLocationId: "store-1",
          name: "Store 1",
          address: { line1: "1 High St", city: "London", postcode: "N1 1AA", country: "United Kingdom" },
          operatingHours: alwaysOpenHours(),
          collectionEnabled: true,
          stock: { "SKU-A": 10 },
        },
      ],
    })
    await sim.start()
    client = makeClient()
  })

  afterEach(async () => {
    await client.close()
    await sim.stop()
  })

  const operations = () => sim.requests().map((r) => `${r.operation}:${r.status ?? r.fault}`)

  describe("transport", () => {
    it("sends the API key and a JSON content type, and reads the quote", async () => {
      const quote = await client.quote(quoteRequest())
      expect(quote.rates.map((r) => r.rateCode)).toEqual(["NEXT_DAY", "SVC_COL"])
      const [logged] = sim.requests("quote")
      expect(logged.apiKeyValid).toBe(true)
      expect(logged.contentType).toBe("application/json")
    })

    it("keeps a path prefix of the base URL", async () => {
      const prefixed = makeClient({ baseUrl: `${sim.url}/v1` })
      await expect(prefixed.quote(quoteRequest())).rejects.toBeInstanceOf(LastmileRejectedError)
      expect(sim.requests()[0].path).toBe("/v1/task/quotes")
      await prefixed.close()
    })

    it("turns a wrong key into an authentication error", async () => {
      const wrong = makeClient({ apiKey: "lm_wrong_key_000000" })
      const error = await wrong.quote(quoteRequest()).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileAuthenticationError)
      expect((error as LastmileError).status).toBe(401)
      await wrong.close()
    })

    it("reports an unreachable service as such, and as certainly not processed", async () => {
      const port = Number(new URL(sim.url).port)
      await sim.stop()
      const offline = makeClient({ baseUrl: `http://127.0.0.1:${port}` })
      const error = await offline.findDeliveries("order_1").catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileUnreachableError)
      expect((error as LastmileError).notProcessed).toBe(true)
      await offline.close()
      sim = new LastmileSimulator()
      await sim.start()
    })
  })

  describe("reads under injected faults", () => {
    it("retries a quote after 5xx answers and succeeds", async () => {
      sim.addFault({ operation: "quote", kind: "status", status: 503, times: 2 })
      const quote = await client.quote(quoteRequest())
      expect(quote.rates.length).toBeGreaterThan(0)
      expect(operations()).toEqual(["quote:503", "quote:503", "quote:200"])
    })

    it("gives up after the attempt limit and throws the server error with its body", async () => {
      sim.addFault({ operation: "lookupDelivery", kind: "status", status: 500 })
      const error = await client.findDeliveries("order_1").catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileServerError)
      expect((error as LastmileError).body).toContain("Injected fault")
      expect(sim.requests("lookupDelivery")).toHaveLength(3)
    })

    it("honours Retry-After on a 429", async () => {
      const waits: number[] = []
      const patient = makeClient({ sleep: async (ms) => void waits.push(ms) })
      sim.addFault({ operation: "quote", kind: "status", status: 429, retryAfterSeconds: 1, times: 1 })
      await patient.quote(quoteRequest())
      await patient.close()
      expect(waits).toEqual([1000])
      expect(operations()).toEqual(["quote:429", "quote:200"])
    })

    it("ends a slow quote at its budget with a timeout error", async () => {
      // The service answers after 1000 ms: only the budget can make this a timeout.
      sim.addFault({ operation: "quote", kind: "latency", latencyMs: 1000 })
      const error = await client.quote(quoteRequest(), { budgetMs: 200 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileTimeoutError)
    })

    it("ends a call the service never answers within the budget, and starts no retry past it", async () => {
      sim.addFault({ operation: "quote", kind: "timeout" })
      const error = await client.quote(quoteRequest(), { budgetMs: 300 }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileTimeoutError)
      expect(sim.requests("quote")).toHaveLength(1)
    })

    it("waits between retries with jittered, growing backoff, within the policy's longest wait", async () => {
      const waits: number[] = []
      const jittery = makeClient({
        retry: { baseDelayMs: 100, maxDelayMs: 150, maxAttempts: 4 },
        sleep: async (ms) => void waits.push(ms),
        random: () => 1,
      })
      sim.addFault({ operation: "lookupDelivery", kind: "status", status: 503, times: 3 })
      expect(await jittery.findDeliveries("order_1")).toEqual([])
      await jittery.close()
      expect(waits).toEqual([100, 150, 150])
    })

    it("retries a lookup after the connection is reset", async () => {
      sim.addFault({ operation: "lookupDelivery", kind: "reset", times: 1 })
      expect(await client.findDeliveries("order_1")).toEqual([])
      expect(sim.requests("lookupDelivery")).toHaveLength(2)
    })

    it("rejects malformed JSON as an invalid response without retrying it", async () => {
      sim.addFault({ operation: "quote", kind: "malformed" })
      const error = await client.quote(quoteRequest()).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileInvalidResponseError)
      expect(sim.requests("quote")).toHaveLength(1)
    })

    it("stops when the caller aborts", async () => {
      sim.addFault({ operation: "quote", kind: "timeout" })
      const controller = new AbortController()
      setTimeout(() => controller.abort(), 50)
      await expect(client.quote(quoteRequest(), { signal: controller.signal })).rejects.toBeInstanceOf(
        LastmileTimeoutError
      )
    })
  })

  describe("bookDelivery: exactly once", () => {
    beforeEach(async () => {
      await client.quote(quoteRequest())
      sim.clearRequests()
    })

    it("books once on a healthy service", async () => {
      const result = await client.bookDelivery(bookingRequest("NEXT_DAY"))
      expect(result).toMatchObject({ adopted: false, attempts: 1, task: { trackingId: expect.stringMatching(/^LM/) } })
      expect(operations()).toEqual(["bookDelivery:201"])
    })

    it("adopts the booking when the answer is lost after the service committed it", async () => {
      sim.addFault({ operation: "bookDelivery", kind: "dropAfterCommit", times: 1 })
      const result = await client.bookDelivery(bookingRequest("NEXT_DAY"))
      expect(result.adopted).toBe(true)
      expect(result.task.taskId).toBe(sim.tasks()[0].taskId)
      expect(sim.tasks()).toHaveLength(1)
      expect(operations()).toEqual(["bookDelivery:dropAfterCommit", "lookupDelivery:200"])
    })

    it("adopts the booking after a 5xx that came after the commit", async () => {
      sim.addFault({ operation: "bookDelivery", kind: "status", status: 502, commit: true, times: 1 })
      const result = await client.bookDelivery(bookingRequest("NEXT_DAY"))
      expect(result.adopted).toBe(true)
      expect(sim.tasks()).toHaveLength(1)
    })

    it("after two 5xx with nothing booked, looks up before each repeat and then books once", async () => {
      sim.addFault({ operation: "bookDelivery", kind: "status", status: 500, times: 2 })
      const result = await client.bookDelivery(bookingRequest("NEXT_DAY"))
      expect(result).toMatchObject({ adopted: false, attempts: 3 })
      expect(sim.tasks()).toHaveLength(1)
      expect(operations()).toEqual([
        "bookDelivery:500",
        "lookupDelivery:200",
        "bookDelivery:500",
        "lookupDelivery:200",
        "bookDelivery:201",
      ])
    })

    it("never posts again while the lookup cannot tell; the outcome is reported unknown", async () => {
      const slow = makeClient({ timeouts: { bookingMs: 150, lookupMs: 150 } })
      sim.addFault({ operation: "bookDelivery", kind: "timeout", commit: true })
      sim.addFault({ operation: "lookupDelivery", kind: "status", status: 503 })
      const error = await slow.bookDelivery(bookingRequest("NEXT_DAY")).catch((e: unknown) => e)
      await slow.close()
      expect(error).toBeInstanceOf(LastmileBookingOutcomeUnknownError)
      expect((error as LastmileBookingOutcomeUnknownError).merchantOrderId).toBe("order_1")
      expect(sim.requests("bookDelivery")).toHaveLength(1)
      expect(sim.tasks()).toHaveLength(1)
    })

    it("adopts the existing task when a repeat is answered 409", async () => {
      await client.bookDelivery(bookingRequest("NEXT_DAY"))
      sim.configure({ duplicateBooking: "conflict" })
      const result = await client.bookDelivery(bookingRequest("NEXT_DAY"))
      expect(result.adopted).toBe(true)
      expect(sim.tasks()).toHaveLength(1)
    })

    it("does not repeat a rejected booking and keeps the service's reason", async () => {
      const error = await client.bookDelivery(bookingRequest("SAME_DAY")).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileRejectedError)
      expect((error as LastmileError).status).toBe(422)
      expect((error as LastmileError).body).toContain("RATE_NOT_QUOTED")
      expect(operations()).toEqual(["bookDelivery:422"])
    })

    it("repeats a booking the service refused with 429, and surfaces the 429 when it never accepts", async () => {
      sim.addFault({ operation: "bookDelivery", kind: "status", status: 429, retryAfterSeconds: 0 })
      const error = await client.bookDelivery(bookingRequest("NEXT_DAY")).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileRateLimitError)
      expect(sim.requests("bookDelivery")).toHaveLength(3)
      expect(sim.requests("lookupDelivery")).toHaveLength(0)
      expect(sim.tasks()).toHaveLength(0)
    })

    it("repeats a booking whose connection was refused (nothing was sent)", async () => {
      const port = Number(new URL(sim.url).port)
      await sim.stop()
      const offline = makeClient({ baseUrl: `http://127.0.0.1:${port}` })
      const error = await offline.bookDelivery(bookingRequest("NEXT_DAY")).catch((e: unknown) => e)
      await offline.close()
      expect(error).toBeInstanceOf(LastmileUnreachableError)
      expect((error as LastmileError).notProcessed).toBe(true)
      sim = new LastmileSimulator()
      await sim.start()
    })
  })

  describe("bookReturn", () => {
    it("adopts a return whose answer was lost", async () => {
      sim.addFault({ operation: "bookReturn", kind: "dropAfterCommit", times: 1 })
      const result = await client.bookReturn(bookingRequest("RETURN"))
      expect(result.adopted).toBe(true)
      expect(sim.tasks().filter((t) => t.taskType === "RETURN")).toHaveLength(1)
    })

    it("never posts a return twice when the outcome is unknown", async () => {
      sim.addFault({ operation: "bookReturn", kind: "status", status: 500 })
      const error = await client.bookReturn(bookingRequest("RETURN")).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(LastmileBookingOutcomeUnknownError)
      expect(sim.requests("bookReturn")).toHaveLength(1)
    })
  })

  describe("lookups", () => {
    it("reads a single-task answer, and its 404 as nothing booked", async () => {
      sim.configure({ lookupShape: "single" })
      expect(await client.findTask("order_1", { kind: "DELIVERY" })).toBeNull()
      await client.quote(quoteRequest())
      await client.bookDelivery(bookingRequest("NEXT_DAY"))
      expect((await client.findTask("order_1", { kind: "DELIVERY" }))?.taskType).toBe("DELIVERY")
    })

    it("reads an envelope answer", async () => {
      sim.configure({ lookupShape: "envelope" })
      await client.quote(quoteRequest())
      await client.bookDelivery(bookingRequest("NEXT_DAY"))
      expect(await client.findDeliveries("order_1")).toHaveLength(1)
    })
  })

  describe("fulfilment locations", () => {
    it("lists locations at the spec's path, or at the one configured, without trying others", async () => {
      sim.configure({ locationsListPath: "/fulfilment/fulfilment-locations", locationsShape: "envelope" })
      await expect(client.listFulfilmentLocations()).rejects.toMatchObject({ status: 404 })
      const prefixed = makeClient({ locationsPath: "/fulfilment/fulfilment-locations" })
      const listed = await prefixed.listFulfilmentLocations()
      await prefixed.close()
      expect(listed.map((l) => l.externalLocationId)).toEqual(["store-1"])
      expect(sim.requests().map((r) => `${r.path}:${r.status}`)).toEqual([
        "/fulfilment-locations:404",
        "/fulfilment/fulfilment-locations:200",
      ])
    })

    it("switches collection on a location", async () => {
      const updated = await client.setCollectionEnabled("fl_1", false)
      expect(updated?.collectionEnabled).toBe(false)
      expect(sim.location("fl_1").collectionEnabled).toBe(false)
      expect(sim.requests("updateLocation")[0].body).toEqual({ collectionEnabled: false })
    })
  })
})

describe("LastmileClient keeps the API key secret", () => {
  let echo: Server
  let url: string

  beforeAll(async () => {
    // A careless upstream that echoes the key back in its error bodies.
    echo = createServer((req, res) => {
      const status = req.url?.startsWith("/task/quotes") ? 500 : 401
      res.writeHead(status, { "content-type": "text/plain" })
      res.end(`bad key ${String(req.headers["x-api-key"])} for ${req.url}`)
    })
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => echo.close(() => resolve()))
  })

  it("removes the key from error messages, bodies and log lines", async () => {
    const lines: string[] = []
    const client = new LastmileClient({
      apiKey: KEY,
      baseUrl: url,
      retry: { baseDelayMs: 1 },
      logger: { debug: (m) => lines.push(m), warn: (m) => lines.push(m) },
    })
    const errors = [
      await client.quote(quoteRequest()).catch((e: unknown) => e),
      await client.findDeliveries("order_1").catch((e: unknown) => e),
    ]
    await client.close()
    for (const error of errors) {
      expect(error).toBeInstanceOf(LastmileError)
      const everything = `${(error as Error).message} ${(error as LastmileError).body} ${JSON.stringify(error)}`
      expect(everything).toContain("[REDACTED]")
      expect(everything).not.toContain(KEY)
    }
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join("\n")).not.toContain(KEY)
  })
})

describe("LastmileClient cleans the service's error text at its edge", () => {
  let hostile: Server
  let url: string
  /** Line breaks, a right-to-left override, isolates, a zero-width space and a bell, raw and as JSON escapes. */
  const TEXT = "Refused.\r\nCall us\u202E 0800\u2066x\u2069\u200B\u0007 now"

  beforeAll(async () => {
    hostile = createServer((req, res) => {
      res.writeHead(req.url?.startsWith("/task/quotes") ? 422 : 500, { "content-type": "application/json" })
      res.end(`${JSON.stringify({ error: { code: "BAD\nCODE", message: TEXT } })}\n${TEXT}`)
    })
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => hostile.close(() => resolve()))
  })

  it("so no line break, control or bidi character reaches a task's reason, the bell or a report", async () => {
    const client = new LastmileClient({ apiKey: KEY, baseUrl: url, retry: { baseDelayMs: 1, maxAttempts: 1 } })
    const errors = [
      await client.quote(quoteRequest()).catch((e: unknown) => e),
      await client.findDeliveries("order_1").catch((e: unknown) => e),
    ]
    await client.close()
    const unsafe = /[\r\n\u0000-\u001F\u202A-\u202E\u2066-\u2069\u200B]/
    for (const error of errors) {
      expect(error).toBeInstanceOf(LastmileError)
      const { message, body } = error as LastmileError
      expect(message).not.toMatch(unsafe)
      expect(body).not.toMatch(unsafe)
      // What a booking's failure records on the task (and the bell and the CSV repeat): the same, clean.
      expect(`${describeRefusal(error)} ${outcomeOfError(error).reason}`).not.toMatch(unsafe)
    }
    expect(describeRefusal(errors[0])).toMatch(
      /^the service refused the request \(422\): .*Refused\. Call us 0800x now$/
    )
  })
})
