import { StatusTable } from "../status-table"
import {
  type FulfillmentProgress,
  fulfillmentUpdates,
  returnUpdates,
  statusChangedPayload,
  statusReading,
  syncOutcome,
  taskStatusFields,
  trackingStateMoved,
  trackingUpdatesOf,
} from "../task-sync"
import { trackedTask } from "../../../../integration-tests/helpers/tracked-task"

const task = trackedTask

const fulfillment = (overrides: Partial<FulfillmentProgress> = {}): FulfillmentProgress => ({
  id: "ful_1",
  shipped_at: null,
  delivered_at: null,
  canceled_at: null,
  labels: [{ tracking_number: "LM1", tracking_url: "https://t/LM1", label_url: "" }],
  items: [{ line_item_id: "item_1", quantity: "2" }],
  ...overrides,
})

const table = new StatusTable()
const at = new Date("2026-11-22T10:00:00.000Z")

describe("a status read", () => {
  it("maps the value forward-only and knows whether it changed", () => {
    const reading = statusReading(task({ tracking_state: "delivered" }), "IN_TRANSIT", table, at)
    expect(reading).toMatchObject({ phase: "shipped", tracking_state: "delivered", changed: true })
    expect(trackingStateMoved(reading)).toBe(false)
    expect(trackingStateMoved(statusReading(task(), "DELIVERED", table, at))).toBe(true)
  })

  it("records a new value with a history entry, and an unknown one as unmapped", () => {
    const reading = statusReading(task(), "TELEPORTED", table, at)
    const fields = taskStatusFields(reading, { entries: [{ value: "NOT_STARTED", at: "x" }] }, "webhook")
    expect(fields).toEqual({
      last_checked_at: at,
      tracking_state: "awaiting",
      service_status: "TELEPORTED",
      unmapped_status: "TELEPORTED",
      status_history: {
        entries: [
          { value: "NOT_STARTED", at: "x" },
          { value: "TELEPORTED", at: at.toISOString(), source: "webhook", phase: "unknown" },
        ],
      },
    })
    expect(syncOutcome(reading, []).outcome).toBe("NOT_STARTED → TELEPORTED (unknown status, recorded)")
  })

  it("only stamps the read time when the value is unchanged", () => {
    const reading = statusReading(
      task({ service_status: "IN_TRANSIT", tracking_state: "shipped" }),
      "IN_TRANSIT",
      table,
      at
    )
    expect(taskStatusFields(reading, null, "poll")).toEqual({ last_checked_at: at, tracking_state: "shipped" })
    expect(syncOutcome(reading, [])).toEqual({
      outcome: "still IN_TRANSIT (shipped)",
      changed: false,
      status: "IN_TRANSIT",
      trackingState: "shipped",
      ok: true,
    })
  })

  it("gives the event the previous and new state", () => {
    const payload = statusChangedPayload(statusReading(task(), "DELIVERED", table, at), "poll")
    expect(payload).toMatchObject({
      previous_status: "NOT_STARTED",
      status: "DELIVERED",
      phase: "delivered",
      previous_tracking_state: "awaiting",
      tracking_state: "delivered",
      source: "poll",
    })
  })

  it("passes a stopped read's outcome through", () => {
    expect(syncOutcome({ kind: "stopped", outcome: "not updated: down", ok: false }, [])).toEqual({
      outcome: "not updated: down",
      changed: false,
      ok: false,
    })
  })
})

describe("fulfillment updates", () => {
  it("ships with the labels re-sent, then delivers, each once", () => {
    const both = fulfillmentUpdates(task(), "delivered", fulfillment())
    expect(both).toEqual({
      shipment: {
        order_id: "order_1",
        fulfillment_id: "ful_1",
        items: [{ id: "item_1", quantity: 2 }],
        labels: [{ tracking_number: "LM1", tracking_url: "https://t/LM1", label_url: "" }],
      },
      delivery: { orderId: "order_1", fulfillmentId: "ful_1" },
      applied: ["fulfillment marked shipped", "fulfillment marked delivered"],
    })
    const shipped = fulfillment({ shipped_at: "2026-11-22T09:00:00Z" })
    expect(fulfillmentUpdates(task(), "shipped", shipped)).toEqual({ applied: [] })
    expect(fulfillmentUpdates(task(), "delivered", shipped)).toEqual({
      delivery: { orderId: "order_1", fulfillmentId: "ful_1" },
      applied: ["fulfillment marked delivered"],
    })
  })

  it("leaves a canceled or missing fulfillment, and states that need nothing", () => {
    const note = ["(the fulfillment is gone or canceled; Medusa left as is)"]
    expect(fulfillmentUpdates(task(), "shipped", fulfillment({ canceled_at: "x" })).applied).toEqual(note)
    expect(fulfillmentUpdates(task(), "shipped", null).applied).toEqual(note)
    expect(fulfillmentUpdates(task(), "awaiting", fulfillment())).toEqual({ applied: [] })
    expect(fulfillmentUpdates(task({ fulfillment_id: null }), "shipped", fulfillment())).toEqual({ applied: [] })
  })

  it("cancels Medusa's fulfillment once the service cancelled the task, unless it is shipped", () => {
    expect(fulfillmentUpdates(task(), "cancelled", fulfillment())).toEqual({
      cancellation: { kind: "delivery", order_id: "order_1", fulfillment_id: "ful_1" },
      applied: ["fulfillment cancelled in Medusa"],
    })
    const shipped = fulfillmentUpdates(task(), "cancelled", fulfillment({ shipped_at: "2026-11-22T09:00:00Z" }))
    expect(shipped.cancellation).toBeUndefined()
    expect(shipped.applied).toEqual(["(the fulfillment is shipped: Medusa cannot cancel it; left as is)"])
  })

  it("cancels a return's fulfillment once the service cancelled its task", () => {
    const returnTask = task({ kind: "return", return_id: "ret_1", fulfillment_id: "ful_r" })
    expect(
      returnUpdates(returnTask, "cancelled", false, { status: "requested", items: [], fulfillment: { id: "ful_r" } })
    ).toEqual({
      cancellation: { kind: "return", order_id: "order_1", fulfillment_id: "ful_r" },
      applied: ["return fulfillment cancelled in Medusa"],
    })
    expect(
      returnUpdates(returnTask, "cancelled", false, { status: "requested", items: [], fulfillment: null })
    ).toEqual({
      applied: [],
    })
  })
})

describe("return updates", () => {
  const returned = task({ kind: "return", return_id: "ret_1", fulfillment_id: null })
  const orderReturn = {
    status: "requested",
    items: [
      { item_id: "item_1", quantity: 2, received_quantity: 1 },
      { item_id: "item_2", quantity: 1, received_quantity: 1 },
    ],
  }

  it("receives what is outstanding when delivered and asked for", () => {
    expect(returnUpdates(returned, "delivered", true, orderReturn)).toEqual({
      return_receipt: { return_id: "ret_1", items: [{ id: "item_1", quantity: 1 }] },
      applied: ["return marked received"],
    })
  })

  it("does nothing otherwise", () => {
    expect(returnUpdates(returned, "delivered", false, orderReturn)).toEqual({ applied: [] })
    expect(returnUpdates(returned, "shipped", true, orderReturn)).toEqual({ applied: [] })
    expect(returnUpdates(returned, "delivered", true, { ...orderReturn, status: "received" })).toEqual({ applied: [] })
    expect(returnUpdates(returned, "delivered", true, { status: "requested", items: [orderReturn.items[1]] })).toEqual({
      applied: [],
    })
  })
})

describe("Medusa's shipment and delivery while the plugin tells the shopper", () => {
  it("carry no_notification, so a shop's own shipped email does not double the plugin's", () => {
    const reading = statusReading(task(), "DELIVERED", table, at)
    const quiet = trackingUpdatesOf(reading, false, { fulfillment: fulfillment() }, true)
    expect(quiet.shipment?.no_notification).toBe(true)
    expect(quiet.delivery).toEqual({ orderId: "order_1", fulfillmentId: "ful_1", no_notification: true })
    const told = trackingUpdatesOf(reading, false, { fulfillment: fulfillment() }, false)
    expect(told.shipment).not.toHaveProperty("no_notification")
  })

  it("keep a window the service gave with the status on its history entry", () => {
    const window = { from: "2026-11-22T12:00:00Z", to: "2026-11-22T16:00:00Z" }
    const fields = taskStatusFields(
      { ...statusReading(task(), "OUT_FOR_DELIVERY", table, at), window },
      null,
      "webhook"
    )
    expect(fields.status_history?.entries.at(-1)).toMatchObject({ value: "OUT_FOR_DELIVERY", window })
  })
})
