import { bookingRequest, quoteRequest } from "./service-requests"
import { callSimulator, testStore } from "./simulator-calls"
import { defaultConfig, strictProfile } from "../defaults"
import { LastmileSimulator } from "../server"
import { SimulatorError } from "../simulator-state"
import type { SimulatorProfile } from "../types"
import { control, startReceiver, type WebhookReceiver } from "./sim-helpers"

const KEY = "sim_key_for_return_tests"

describe("LastmileSimulator, what the spec leaves open about returns and cancelling", () => {
  let sim: LastmileSimulator
  let receiver: WebhookReceiver

  const startSim = async (profile: SimulatorProfile = "default") => {
    sim = new LastmileSimulator({
      profile,
      config: { apiKey: KEY, webhookUrl: receiver.url, webhook: { retryBaseMs: 5, retryMaxMs: 20 } },
      clock: () => Date.parse("2026-11-23T12:00:00Z"),
      locations: [testStore("a", { "SKU-A": 5 })],
    })
    await sim.start()
  }

  beforeEach(async () => {
    receiver = await startReceiver()
    await startSim()
  })

  afterEach(async () => {
    await sim.stop()
    await receiver.close()
  })

  const call = (method: "GET" | "POST", path: string, body?: unknown) =>
    callSimulator(sim, KEY, method, path, body) as Promise<{ status: number; json: any }>

  const bookReturn = (merchantOrderId = "order_1") => {
    const body = bookingRequest("RETURN")
    body.order.merchantOrderId = merchantOrderId
    return call("POST", "/task/returns", body)
  }

  /** A quoted delivery booking; the strict profile mints its rate codes per quote. */
  const bookDelivery = async () => {
    const { json } = await call("POST", "/task/quotes", quoteRequest())
    const rate = json.rates.find((r: { rateCode: string; error?: unknown }) => r.rateCode !== "SVC_COL" && !r.error)
    return call("POST", "/task/deliveries", bookingRequest(rate.rateCode))
  }

  const lookup = (merchantOrderId = "order_1") => call("GET", `/task/deliveries?merchantOrderId=${merchantOrderId}`)

  describe("the new options' values", () => {
    it("defaults to today's behaviour, and the strict profile takes the least convenient value", () => {
      expect(defaultConfig()).toMatchObject({
        returnLookup: "listed",
        returnTaskType: "RETURN",
        returnDeduplication: true,
        cancelledStatus: "CANCELLED",
      })
      expect(strictProfile()).toMatchObject({
        returnLookup: "hidden",
        returnTaskType: null,
        returnDeduplication: false,
      })
    })

    it("changes them through PATCH /__sim/config", async () => {
      const { json } = await control(sim, "PATCH", "/__sim/config", {
        returnLookup: "hidden",
        returnTaskType: "COLLECTION",
        returnDeduplication: false,
        cancelledStatus: "VOID",
      })
      expect(json).toMatchObject({
        returnLookup: "hidden",
        returnTaskType: "COLLECTION",
        returnDeduplication: false,
        cancelledStatus: "VOID",
      })
    })
  })

  describe("returnLookup: whether the delivery lookup finds returns", () => {
    it('"listed" (default): a return is found by its merchantOrderId, next to the delivery', async () => {
      const delivery = await bookDelivery()
      const booked = await bookReturn()
      const { json } = await lookup()
      expect(json.map((t: { taskId: number }) => t.taskId)).toEqual([delivery.json.taskId, booked.json.taskId])
      expect((await lookup("order_2")).json).toEqual([])
      await bookReturn("order_2")
      expect((await lookup("order_2")).json).toEqual([expect.objectContaining({ taskType: "RETURN" })])
    })

    it('"hidden": an order with only a return looks as if it had no task (an empty list)', async () => {
      sim.configure({ returnLookup: "hidden" })
      await bookReturn("order_2")
      expect(await lookup("order_2")).toEqual({ status: 200, json: [] })
      const delivery = await bookDelivery()
      await bookReturn()
      expect((await lookup()).json).toEqual([expect.objectContaining({ taskId: delivery.json.taskId })])
    })

    it('"hidden" in the other lookup shapes: 404 for a single task, an empty envelope', async () => {
      sim.configure({ returnLookup: "hidden", lookupShape: "single" })
      await bookReturn()
      const single = await lookup()
      expect(single.status).toBe(404)
      expect(single.json.error.code).toBe("NOT_FOUND")
      sim.configure({ lookupShape: "envelope" })
      expect((await lookup()).json).toEqual({ tasks: [] })
      sim.configure({ returnLookup: "listed", lookupShape: "single" })
      expect((await lookup()).json.taskType).toBe("RETURN")
    })

    it("is hidden in the strict profile (a single-task lookup: 404)", async () => {
      await sim.stop()
      await startSim("strict")
      await bookReturn()
      expect((await lookup()).status).toBe(404)
    })
  })

  describe("returnTaskType: what taskType a return shows", () => {
    it('shows "RETURN" by default, in the booking answer, the lookup and the webhook', async () => {
      const booked = await bookReturn()
      expect(booked.json.taskType).toBe("RETURN")
      expect((await lookup()).json[0].taskType).toBe("RETURN")
      sim.advanceTask(booked.json.taskId)
      await sim.webhooks.idle()
      expect(receiver.received[0].body).toMatchObject({ taskId: booked.json.taskId, taskType: "RETURN" })
    })

    it("shows another configured value", async () => {
      sim.configure({ returnTaskType: "REVERSE" })
      expect((await bookReturn()).json.taskType).toBe("REVERSE")
    })

    it("leaves the field out entirely when null, as in the strict profile; deliveries keep theirs", async () => {
      await sim.stop()
      await startSim("strict")
      sim.configure({ lookupShape: "list", returnLookup: "listed" })
      const booked = await bookReturn()
      expect(booked.status).toBe(201)
      expect(booked.json).not.toHaveProperty("taskType")
      expect((await lookup()).json[0]).not.toHaveProperty("taskType")
      expect((await bookDelivery()).json.taskType).toBe("DELIVERY")

      sim.advanceTask(booked.json.taskId)
      await sim.webhooks.idle()
      expect(receiver.received[0].body.taskId).toBe(booked.json.taskId)
      expect(receiver.received[0].body).not.toHaveProperty("taskType")
      // The simulator itself still knows it is a return.
      expect(sim.tasks()[0].taskType).toBe("RETURN")
    })
  })

  describe("returnDeduplication: whether a repeated return creates a second task", () => {
    it("true (default): the repeat answers the same task with 200, like a repeated delivery booking", async () => {
      const first = await bookReturn()
      const again = await bookReturn()
      expect([first.status, again.status]).toEqual([201, 200])
      expect(again.json.taskId).toBe(first.json.taskId)
      expect(sim.tasks()).toHaveLength(1)
    })

    it("true, with duplicateBooking conflict: the repeat answers 409", async () => {
      sim.configure({ duplicateBooking: "conflict" })
      const first = await bookReturn()
      const again = await bookReturn()
      expect(again.status).toBe(409)
      expect(again.json.error).toMatchObject({ code: "DUPLICATE_ORDER", details: { taskId: first.json.taskId } })
      expect(sim.tasks()).toHaveLength(1)
    })

    it("false: each repeat books a second return task, and the lookup lists both", async () => {
      sim.configure({ returnDeduplication: false })
      const first = await bookReturn()
      const again = await bookReturn()
      expect([first.status, again.status]).toEqual([201, 201])
      expect(again.json.taskId).not.toBe(first.json.taskId)
      expect(sim.tasks().map((t) => t.taskType)).toEqual(["RETURN", "RETURN"])
      expect((await lookup()).json).toHaveLength(2)
    })

    it("false in the strict profile, whose repeated deliveries still conflict", async () => {
      await sim.stop()
      await startSim("strict")
      expect((await bookReturn()).status).toBe(201)
      expect((await bookReturn()).status).toBe(201)
      expect((await bookDelivery()).status).toBe(201)
      expect((await bookDelivery()).status).toBe(409)
      expect(sim.tasks().map((t) => t.taskType)).toEqual(["RETURN", "RETURN", "DELIVERY"])
    })

    it("keeps deliveries and returns of one order apart either way", async () => {
      await bookDelivery()
      expect((await bookReturn()).status).toBe(201)
      expect(sim.tasks().map((t) => t.taskType)).toEqual(["DELIVERY", "RETURN"])
    })
  })

  describe("cancelling a task in the service's own app", () => {
    it("cancelTask sets the status, records it in the history and sends the webhook", async () => {
      const booked = await bookDelivery()
      const task = sim.cancelTask(booked.json.taskId)
      expect(task.status).toEqual({ taskId: booked.json.taskId, value: "CANCELLED" })
      expect(task.statusHistory.map((h) => h.value)).toEqual(["NOT_STARTED", "CANCELLED"])
      expect(task.statusHistory[1].at).toBe("2026-11-23T12:00:00.000Z")
      await sim.webhooks.idle()
      expect(receiver.received.map((r) => r.body)).toEqual([
        expect.objectContaining({
          type: "task.status_changed",
          taskId: booked.json.taskId,
          status: { taskId: booked.json.taskId, value: "CANCELLED" },
        }),
      ])
      expect((await lookup()).json[0].status.value).toBe("CANCELLED")
    })

    it("POST /__sim/tasks/:id/cancel does the same, with the configured cancelledStatus", async () => {
      sim.configure({ cancelledStatus: "CANCELLED_BY_MERCHANT" })
      const booked = await bookReturn()
      const { status, json } = await control(sim, "POST", `/__sim/tasks/${booked.json.taskId}/cancel`)
      expect(status).toBe(200)
      expect(json.status.value).toBe("CANCELLED_BY_MERCHANT")
      expect(json.statusHistory.map((h: { value: string }) => h.value)).toEqual([
        "NOT_STARTED",
        "CANCELLED_BY_MERCHANT",
      ])
      await sim.webhooks.idle()
      expect(receiver.received.map((r) => r.body.status.value)).toEqual(["CANCELLED_BY_MERCHANT"])
    })

    it("cancels once: a second cancel, or advancing a cancelled task, changes nothing and sends nothing", async () => {
      const booked = await bookDelivery()
      sim.advanceTask(booked.json.taskId)
      sim.cancelTask(booked.json.taskId)
      await control(sim, "POST", `/__sim/tasks/${booked.json.taskId}/cancel`)
      const advanced = await control(sim, "POST", `/__sim/tasks/${booked.json.taskId}/advance`)
      expect(advanced.json.status.value).toBe("CANCELLED")
      await sim.webhooks.idle()
      expect(receiver.received.map((r) => r.body.status.value)).toEqual(["ASSIGNED", "CANCELLED"])
      expect(sim.tasks()[0].statusHistory.map((h) => h.value)).toEqual(["NOT_STARTED", "ASSIGNED", "CANCELLED"])
    })

    it("answers 404 for a task it does not have", async () => {
      const { status, json } = await control(sim, "POST", "/__sim/tasks/999/cancel")
      expect(status).toBe(404)
      expect(json.error.code).toBe("TASK_NOT_FOUND")
      expect(() => sim.cancelTask(999)).toThrow(SimulatorError)
    })

    it("still sets any status with POST /__sim/tasks/:id/status {value}", async () => {
      const booked = await bookDelivery()
      const { json } = await control(sim, "POST", `/__sim/tasks/${booked.json.taskId}/status`, { value: "LOST" })
      expect(json.status.value).toBe("LOST")
      await sim.webhooks.idle()
      expect(receiver.received.map((r) => r.body.status.value)).toEqual(["LOST"])
    })
  })
})
