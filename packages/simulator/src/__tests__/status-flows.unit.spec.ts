/**
 * The flows the simulator moves tasks along: a delivery (which can fail an attempt and go out again), a collection, a
 * return; the strict profile's terse values.
 */
import { bookingRequest, quoteRequest } from "./service-requests"
import { callSimulator, testStore } from "./simulator-calls"
import { LastmileSimulator } from "../server"
import type { SimulatorProfile } from "../types"

const KEY = "sim_key_for_flows"

describe("the simulator's status flows", () => {
  let sim: LastmileSimulator

  const start = async (profile: SimulatorProfile) => {
    sim = new LastmileSimulator({ profile, config: { apiKey: KEY }, locations: [testStore("a", { "SKU-A": 5 })] })
    await sim.start()
  }
  afterEach(() => sim.stop())

  const book = async (rateCode: string, merchantOrderId = "order_1"): Promise<number> => {
    const order = { merchantOrderId, merchantOrderName: "#1", lineItems: [{ merchantProductId: "SKU-A", quantity: 1 }] }
    const quoted = await callSimulator(sim, KEY, "POST", "/task/quotes", quoteRequest({ order }))
    const rates = (quoted.json as { rates: { rateCode: string }[] }).rates
    const code = rateCode === "SVC_COL" ? "SVC_COL" : rates.find((r) => r.rateCode !== "SVC_COL")!.rateCode
    const body = bookingRequest(code, { order })
    if (code === "SVC_COL") {
      body.collection = { ...body.collection, merchantLocationId: "store-a" }
    }
    const booked = await callSimulator(sim, KEY, "POST", "/task/deliveries", body)
    expect(booked.status).toBe(201)
    return (booked.json as { taskId: number }).taskId
  }
  const walk = (taskId: number, moves: number) =>
    Array.from({ length: moves }, () => sim.advanceTask(taskId).status.value)
  const control = (taskId: number, command: string) =>
    callSimulator(sim, KEY, "POST", `/__sim/tasks/${taskId}/${command}`)

  it("moves a delivery out for delivery, fails an attempt on command, sends it out again, and delivers it", async () => {
    await start("default")
    const taskId = await book("NEXT_DAY")
    expect(walk(taskId, 4)).toEqual(["ASSIGNED", "PICKED_UP", "IN_TRANSIT", "OUT_FOR_DELIVERY"])
    const failed = await control(taskId, "fail-attempt")
    expect([failed.status, (failed.json as { status: { value: string } }).status.value]).toEqual([
      200,
      "FAILED_ATTEMPT",
    ])
    expect(walk(taskId, 3)).toEqual(["OUT_FOR_DELIVERY", "DELIVERED", "DELIVERED"])
    expect(sim.tasks()[0].statusHistory.map((h) => h.value)).toEqual([
      "NOT_STARTED",
      "ASSIGNED",
      "PICKED_UP",
      "IN_TRANSIT",
      "OUT_FOR_DELIVERY",
      "FAILED_ATTEMPT",
      "OUT_FOR_DELIVERY",
      "DELIVERED",
    ])
  })

  it("makes a collection ready and then collected, and refuses to fail an attempt at one", async () => {
    await start("default")
    const taskId = await book("SVC_COL")
    expect(walk(taskId, 3)).toEqual(["READY_FOR_COLLECTION", "COLLECTED_BY_CUSTOMER", "COLLECTED_BY_CUSTOMER"])
    const refused = await control(taskId, "fail-attempt")
    expect([refused.status, (refused.json as { error: { code: string } }).error.code]).toEqual([409, "NOT_ON_ITS_WAY"])
  })

  it("refuses to fail an attempt at a delivery not yet on its way, or delivered", async () => {
    await start("default")
    const taskId = await book("NEXT_DAY")
    expect((await control(taskId, "fail-attempt")).status).toBe(409)
    walk(taskId, 5)
    expect((await control(taskId, "fail-attempt")).status).toBe(409)
    expect(sim.tasks()[0].status.value).toBe("DELIVERED")
  })

  it("uses terse values in the strict profile: a collection completes like a delivery", async () => {
    await start("strict")
    const delivery = await book("NEXT_DAY", "order_d")
    const collection = await book("SVC_COL", "order_c")
    expect(walk(delivery, 2)).toEqual(["ACCEPTED", "STARTED"])
    expect(sim.failAttempt(delivery).status.value).toBe("ATTEMPTED")
    expect(walk(delivery, 3)).toEqual(["STARTED", "EN_ROUTE", "COMPLETED"])
    expect(walk(collection, 2)).toEqual(["READY_FOR_PICKUP", "COMPLETED"])
  })
})
