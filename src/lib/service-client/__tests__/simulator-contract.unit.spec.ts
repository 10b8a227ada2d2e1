/**
 * The simulator package's names for the service's operations are the client's (it imports nothing of the plugin):
 * checked by the type checker and against a running simulator.
 */
import { LastmileSimulator, type SimulatorOperation, alwaysOpenHours } from "../../../../packages/simulator/src"
import { bookingRequest, quoteRequest } from "../../../../integration-tests/helpers/service-requests"
import { LastmileClient, type LastmileOperation } from "../client"
import { LastmileAuthenticationError } from "../errors"

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameOperations: Same<SimulatorOperation, LastmileOperation> = true

const KEY = "lm_live_key_contract_1234"

describe("the simulator's operations", () => {
  let sim: LastmileSimulator
  let client: LastmileClient

  beforeAll(async () => {
    const store = {
      fulfilmentLocationId: "fl_1",
      externalLocationId: "store-1",
      name: "Store 1",
      address: { line1: "1 High St", city: "London", postcode: "N1 1AA", country: "United Kingdom" },
      operatingHours: alwaysOpenHours(),
      collectionEnabled: true,
      stock: { "SKU-A": 10 },
    }
    sim = new LastmileSimulator({ config: { apiKey: KEY }, locations: [store] })
    await sim.start()
    client = new LastmileClient({ apiKey: KEY, baseUrl: sim.url, retry: { baseDelayMs: 1, maxDelayMs: 5 } })
  })

  afterAll(async () => {
    await client.close()
    await sim.stop()
  })

  it("are the client's, as the type checker sees them", () => {
    expect(sameOperations).toBe(true)
  })

  const calls: [LastmileOperation, (c: LastmileClient) => Promise<unknown>][] = [
    ["quote", (c) => c.quote(quoteRequest())],
    ["bookDelivery", (c) => c.bookDelivery(bookingRequest("NEXT_DAY"))],
    ["lookupDelivery", (c) => c.findDeliveries("order_1")],
    ["bookReturn", (c) => c.bookReturn(bookingRequest("RETURN"))],
    ["listLocations", (c) => c.listFulfilmentLocations()],
    ["updateLocation", (c) => c.setCollectionEnabled("fl_1", false)],
  ]

  it.each(calls)(
    "name the client's %s call: a fault set by that name fails it, and the log shows it",
    async (name, call) => {
      sim.clearRequests()
      sim.addFault({ operation: name, kind: "status", status: 401, times: 1 })
      await expect(call(client)).rejects.toBeInstanceOf(LastmileAuthenticationError)
      expect(sim.requests().map((r) => [r.operation, r.status])).toEqual([[name, 401]])
    }
  )
})
