import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { LastmileSimulator, type SimLocation, alwaysOpenHours } from "../../../../packages/simulator/src"
import { LastmileClient } from "../client"
import { MAX_LIST_PAGES } from "../list-reader"
import { LastmileInvalidResponseError } from "../errors"

const KEY = "lm_live_key_lists_123456"

interface Answer {
  status?: number
  body?: unknown
}

/** A service whose answers each test scripts; it logs every request it gets. */
class ScriptedService {
  readonly requests: { path: string; query: Record<string, string>; key: string | undefined }[] = []
  answer: (url: URL) => Answer = () => ({ status: 404 })
  url = ""
  private server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://service")
    this.requests.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      key: req.headers["x-api-key"] as string | undefined,
    })
    const { status = 200, body } = this.answer(url)
    res.writeHead(status, { "content-type": "application/json" })
    res.end(body === undefined ? "" : JSON.stringify(body))
  })

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  pages(): string[] {
    return this.requests.map((r) => `${r.path}?${new URLSearchParams(r.query).toString()}`)
  }
}

const loc = (n: number) => ({ fulfilmentLocationId: n, collectionEnabled: true, externalLocationId: `store-${n}` })
const task = (n: number) => ({ taskId: n, taskType: "DELIVERY", createdAt: `2026-01-0${n}T10:00:00.000Z` })
const pageOf = (url: URL) => Number(url.searchParams.get("page") ?? "1")

describe("LastmileClient list reads", () => {
  const service = new ScriptedService()
  const other = new ScriptedService()
  const warnings: string[] = []
  const clients: LastmileClient[] = []

  const makeClient = (basePath = "") => {
    const client = new LastmileClient({
      apiKey: KEY,
      baseUrl: `${service.url}${basePath}`,
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      logger: { debug: () => undefined, warn: (m) => warnings.push(m) },
    })
    clients.push(client)
    return client
  }

  beforeAll(async () => {
    await service.start()
    await other.start()
  })

  afterAll(async () => {
    await service.stop()
    await other.stop()
  })

  beforeEach(() => {
    service.requests.length = 0
    other.requests.length = 0
    warnings.length = 0
  })

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()))
  })

  /** Three pages of locations, page N linked from page N-1 by `link(N)`. */
  const threePages = (link: (next: number) => Record<string, unknown>) => (url: URL) => {
    if (url.pathname !== "/fulfilment-locations") {
      return { status: 404 }
    }
    const page = pageOf(url)
    return { body: { data: [loc(page)], ...(page < 3 ? link(page + 1) : {}) } }
  }

  describe("pagination forms", () => {
    const forms: [string, (next: number) => Record<string, unknown>][] = [
      ["an absolute URL", (n) => ({ next: `${service.url}/fulfilment-locations?page=${n}` })],
      ["a path", (n) => ({ next: `/fulfilment-locations?page=${n}` })],
      ["a bare query", (n) => ({ next: `?page=${n}` })],
    ]

    it.each(forms)("follows a next link written as %s to the last page", async (_name, link) => {
      service.answer = threePages(link)
      const locations = await makeClient().listFulfilmentLocations()
      expect(locations.map((l) => l.fulfilmentLocationId)).toEqual([1, 2, 3])
      expect(service.pages()).toEqual([
        "/fulfilment-locations?",
        "/fulfilment-locations?page=2",
        "/fulfilment-locations?page=3",
      ])
      expect(service.requests.every((r) => r.key === KEY)).toBe(true)
      expect(warnings).toEqual([])
    })
  })

  it("keeps the base path prefix and the lookup's merchantOrderId on every page", async () => {
    service.answer = (url) => {
      if (url.pathname !== "/v1/task/deliveries") {
        return { status: 404 }
      }
      const page = pageOf(url)
      // Page 1 links by path, page 2 by a bare query.
      const next = page === 1 ? "/v1/task/deliveries?page=2" : page === 2 ? "?page=3" : null
      return { body: { tasks: [task(page)], next } }
    }
    const client = makeClient("/v1")
    const tasks = await client.findDeliveries("order_1")
    expect(tasks.map((t) => t.taskId)).toEqual([1, 2, 3])
    expect(service.pages()).toEqual([
      "/v1/task/deliveries?merchantOrderId=order_1",
      "/v1/task/deliveries?merchantOrderId=order_1&page=2",
      "/v1/task/deliveries?merchantOrderId=order_1&page=3",
    ])
    // The newest of every page is the one picked.
    expect((await client.findDelivery("order_1"))?.taskId).toBe(3)
  })

  it("guesses no page from counters or flags: the answer's list is the whole list", async () => {
    service.answer = (url) => {
      const page = pageOf(url)
      return { body: { deliveries: [task(page)], meta: { page, total_pages: 2 }, hasMore: true } }
    }
    expect((await makeClient().findDeliveries("order_1")).map((t) => t.taskId)).toEqual([1])
    expect(service.requests).toHaveLength(1)
  })

  it("never follows a next link to another origin, and says why once", async () => {
    service.answer = () => ({ body: { data: [loc(1)], next: `${other.url}/fulfilment-locations?page=2` } })
    const client = makeClient()
    expect((await client.listFulfilmentLocations()).map((l) => l.fulfilmentLocationId)).toEqual([1])
    expect((await client.listFulfilmentLocations()).map((l) => l.fulfilmentLocationId)).toEqual([1])
    expect(other.requests).toEqual([])
    expect(service.requests).toHaveLength(2)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain("another origin")
    expect(warnings[0]).not.toContain(KEY)
  })

  it(`reads at most ${MAX_LIST_PAGES} pages, then warns once and returns what it read`, async () => {
    service.answer = (url) => {
      const page = pageOf(url)
      return { body: { data: [loc(page)], next: `?page=${page + 1}` } }
    }
    const client = makeClient()
    const locations = await client.listFulfilmentLocations()
    expect(MAX_LIST_PAGES).toBe(20)
    expect(locations).toHaveLength(20)
    expect(service.requests).toHaveLength(20)
    await client.listFulfilmentLocations()
    expect(service.requests).toHaveLength(40)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain("more than 20 pages")
  })

  it("stops at a next link that points back at a page already read", async () => {
    service.answer = () => ({ body: { data: [loc(1)], next: "?page=1" } })
    const client = makeClient()
    await client.listFulfilmentLocations()
    expect(service.pages()).toEqual(["/fulfilment-locations?", "/fulfilment-locations?page=1"])
  })

  it("retries a failing page like the first, and takes a 404 or an empty later page as the end", async () => {
    let failures = 1
    service.answer = (url) => {
      const page = pageOf(url)
      if (page === 2 && failures-- > 0) {
        return { status: 503, body: { error: "busy" } }
      }
      if (page === 3) {
        return { status: 404 }
      }
      return { body: { items: [loc(page)], next: `?page=${page + 1}` } }
    }
    const client = makeClient()
    expect((await client.listFulfilmentLocations()).map((l) => l.fulfilmentLocationId)).toEqual([1, 2])
    expect(service.pages().map((p) => p.split("?")[1])).toEqual(["", "page=2", "page=2", "page=3"])

    service.answer = (url) =>
      pageOf(url) === 1 ? { body: { tasks: [task(1)], next: "?page=2" } } : { status: 200, body: undefined }
    expect(await client.findDeliveries("order_1")).toHaveLength(1)
  })

  it("fails the read when a later page is not a list", async () => {
    service.answer = (url) =>
      pageOf(url) === 1 ? { body: { data: [loc(1)], next: "?page=2" } } : { body: { oops: true } }
    await expect(makeClient().listFulfilmentLocations()).rejects.toBeInstanceOf(LastmileInvalidResponseError)
  })

  it("keeps the empty lookup answers meaning nothing booked", async () => {
    const client = makeClient()
    for (const answer of [{ status: 404 }, { body: null }, { body: undefined }, { body: "" }, { body: { data: [] } }]) {
      service.answer = () => answer
      expect(await client.findDeliveries("order_1")).toEqual([])
    }
  })

  it.each([
    "data",
    "items",
    "tasks",
    "deliveries",
    "locations",
    "fulfilmentLocations",
    "fulfillmentLocations",
    "results",
  ])("reads both lists wrapped under %s", async (key) => {
    service.answer = (url) => ({
      body: { [key]: url.pathname === "/task/deliveries" ? [task(1)] : [loc(1)] },
    })
    const client = makeClient()
    expect(await client.listFulfilmentLocations()).toHaveLength(1)
    expect(await client.findDeliveries("order_1")).toHaveLength(1)
  })

  it("reads a quote with null in its envelope and a price without currency, and refuses one whose rates are all unreadable", async () => {
    service.answer = () => ({
      body: {
        eligibility: null,
        rates: [
          { rateCode: "A", price: { amount: 495, currency: null }, error: "" },
          { rateCode: 7, price: 100 },
        ],
      },
    })
    const client = makeClient()
    const request = {
      deliveryType: "NEXT_DAY",
      collection: { address: { line1: "1 A St", city: "London", postcode: "N1 1AA", country: "United Kingdom" } },
      delivery: { address: { line1: "2 B St", city: "London", postcode: "N1 1AB", country: "United Kingdom" } },
      customer: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phoneNumber: "+447700900123" },
      order: { merchantOrderId: "cart_1", merchantOrderName: "cart_1" },
    }
    const quote = await client.quote(request)
    expect(quote.eligibility).toBeUndefined()
    expect(quote.rates).toEqual([{ rateCode: "A", price: 495 }])
    await client.quote(request)
    expect(warnings.filter((w) => w.includes("unreadable rate"))).toHaveLength(1)

    service.answer = () => ({ body: { rates: [{ rateCode: null }, { price: 1 }] } })
    await expect(client.quote(request)).rejects.toBeInstanceOf(LastmileInvalidResponseError)
  })

  it("keeps a task whose status names no task id", async () => {
    service.answer = () => ({
      body: [{ taskId: 9, status: { taskId: null, value: "NOT_STARTED" }, trackingUrl: null }],
    })
    expect(await makeClient().findDeliveries("order_9")).toMatchObject([
      { taskId: 9, status: { value: "NOT_STARTED" } },
    ])
  })
})

describe("LastmileClient and unreadable fulfilment locations", () => {
  const SIM_KEY = "sim_key_for_lists_01"
  let sim: LastmileSimulator
  const warnings: string[] = []

  const store = (n: number): SimLocation => ({
    fulfilmentLocationId: `fl_${n}`,
    externalLocationId: `store-${n}`,
    name: `Store ${n}`,
    address: { line1: `${n} High St`, city: "London", postcode: "N1 1AA", country: "United Kingdom" },
    operatingHours: alwaysOpenHours(),
    collectionEnabled: true,
    stock: {},
  })

  beforeEach(async () => {
    warnings.length = 0
    sim = new LastmileSimulator({
      config: { apiKey: SIM_KEY, locationsShape: "paged", locationsPageSize: 2, junkLocation: true },
      locations: [store(1), store(2), store(3)],
    })
    await sim.start()
  })

  afterEach(async () => {
    await sim.stop()
  })

  it("leaves the unreadable item out, keeps the rest, and warns once across calls", async () => {
    const client = new LastmileClient({
      apiKey: SIM_KEY,
      baseUrl: sim.url,
      logger: { debug: () => undefined, warn: (m) => warnings.push(m) },
    })
    const first = await client.listFulfilmentLocations()
    const second = await client.listFulfilmentLocations()
    await client.close()
    expect(first.map((l) => l.externalLocationId)).toEqual(["store-1", "store-2", "store-3"])
    expect(second).toEqual(first)
    expect(sim.requests("listLocations").map((r) => r.query)).toEqual([{}, { page: "2" }, {}, { page: "2" }])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^lastmile: ignored an unreadable fulfilment location \(fulfilmentLocationId: expected .*collectionEnabled: .*\)/
    )
    expect(warnings[0]).toContain("position 4")
    expect(warnings.join("\n")).not.toContain(SIM_KEY)
  })

  it("warns again for a different unreadable item", async () => {
    const client = new LastmileClient({
      apiKey: SIM_KEY,
      baseUrl: sim.url,
      logger: { debug: () => undefined, warn: (m) => warnings.push(m) },
    })
    await client.listFulfilmentLocations()
    sim.setLocations([store(1), { ...store(2), collectionEnabled: "no" as unknown as boolean }])
    expect((await client.listFulfilmentLocations()).map((l) => l.externalLocationId)).toEqual(["store-1"])
    await client.close()
    expect(warnings).toHaveLength(2)
    expect(warnings[1]).toContain("collectionEnabled")
  })
})
