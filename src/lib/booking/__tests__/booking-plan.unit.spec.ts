/**
 * The booking's plan, decided under the task's lock from what the run read and the task row: what each road books,
 * skips or refuses, and what the row is told before anything reaches the service.
 */
import { bookedRowsNeeded, planBooking, taskToPrepare, type PlannedTask } from "../booking-plan"
import { type BookingRead, deliveryTargetOf, retryTargetOf } from "../booking-read"
import { outcomeOfRow } from "../booking-outcome"
import { buildFulfillmentOptions } from "../../contracts/fulfillment-options"

const [nextDay] = buildFulfillmentOptions(["NEXT_DAY"])

const read: BookingRead = {
  origin: "order",
  order_id: "order_1",
  fulfillment_id: "ful_1",
  subject: {
    direction: "delivery",
    option: nextDay,
    deliveryType: "NEXT_DAY",
    merchantOrderId: "order_1",
    merchantOrderName: "#1001",
    customerAddress: null,
    email: "ada@example.com",
    lines: [],
    merchantAddress: null,
    wish: { rateCode: "NEXT_DAY_ECO", name: "Eco", chosen: true },
    currency: "gbp",
  },
  shown: { kind: "delivery", rateName: "Eco", window: null, store: null },
  context: { mode: "delivery", shipping_option_id: "so_1", stock_location_id: "sloc_1", placed_at: null },
}

const task = (overrides: Partial<PlannedTask> = {}): PlannedTask => ({
  id: "lmtask_1",
  merchant_order_id: "order_1",
  status: "pending",
  attempts: 0,
  fulfillment_id: null,
  task_id: null,
  tracking_id: null,
  last_error: null,
  ...overrides,
})

const orderRead = (overrides: Record<string, unknown> = {}) => ({
  kind: "order" as const,
  read: {
    origin: "order" as const,
    merchantOrderId: "order_1",
    merchantOrderName: "#1001",
    order_id: "order_1",
    shipping_option_id: "so_1",
    items: [{ id: "line_1", quantity: 2 }],
    live: [] as { id: string; data: unknown; booking: null | { taskId: number; provider: "lastmile" } }[],
    pending: null,
    ...overrides,
  },
})

describe("the row a booking prepares", () => {
  it("finds or creates the row of the reference, with what a fulfillment books", () => {
    expect(taskToPrepare({ kind: "fulfillment", read })).toEqual({
      task: expect.objectContaining({
        kind: "delivery",
        origin: "order",
        merchant_order_id: "order_1",
        name: "#1001",
        rate_code: "NEXT_DAY_ECO",
        mode: "delivery",
        stock_location_id: "sloc_1",
      }),
    })
  })

  it("needs no row for what is not the plugin's, a refusal, or a cancelled return, whose rows it closes", () => {
    expect(taskToPrepare({ kind: "order", read: { skip: "not_lastmile" } })).toEqual({
      plan: { action: "skip", outcome: { status: "not_lastmile" } },
    })
    expect(taskToPrepare({ kind: "refuse", reason: "no order" })).toMatchObject({
      plan: { action: "refuse", code: "lastmile_needs_attention", reason: "no order" },
    })
    const cancelled = { ...read, origin: "return" as const, cancelled: true, held: null }
    expect(taskToPrepare({ kind: "return", read: cancelled })).toEqual({
      plan: { action: "skip", outcome: { status: "cancelled" } },
      close: { merchant_order_id: "order_1", detail: expect.stringContaining("never booked") },
    })
  })
})

describe("a fulfillment Medusa created", () => {
  const plan = (row: PlannedTask, handed?: number) =>
    planBooking({ reads: { kind: "fulfillment", read }, task: row, handed, lock_owner: "owner" })

  it("books, looking the task up first unless it is the plugin's own first attempt, handed over", () => {
    expect(plan(task())).toMatchObject({
      plan: { action: "book", attempts: 1, subject: { lookupFirst: true } },
      row: { write: "start", details: expect.objectContaining({ name: "#1001" }) },
    })
    expect(plan(task({ status: "booking", attempts: 1 }), 1)).toMatchObject({
      plan: { action: "book", attempts: 1, subject: { lookupFirst: false } },
      row: { write: "start", continuing: 1 },
    })
  })

  it("skips its own booking, refuses a second fulfillment of a booked delivery or a cancelled one", () => {
    const booked = task({ status: "booked", fulfillment_id: "ful_1", task_id: "1001", tracking_id: "LM1" })
    expect(plan(booked).plan).toEqual({ action: "skip", outcome: { status: "already_booked" } })
    expect(plan({ ...booked, fulfillment_id: "ful_0" }).plan).toMatchObject({
      action: "refuse",
      code: "lastmile_already_booked",
      reason: expect.stringContaining("#1001 already has a lastmile delivery (task 1001, tracking LM1)"),
    })
    expect(plan(task({ status: "cancelled" })).plan).toMatchObject({
      action: "refuse",
      code: "lastmile_needs_attention",
    })
  })
})

describe("the plugin's own delivery of an order", () => {
  const plan = (reads: ReturnType<typeof orderRead>, row = task(), extra = {}) =>
    planBooking({ reads, task: row, lock_owner: "owner", ...extra })

  it("creates the fulfillment, handing its lock and attempt to the hook that books it", () => {
    expect(plan(orderRead())).toEqual({
      plan: {
        action: "fulfil",
        task_row_id: "lmtask_1",
        attempts: 1,
        fulfillment: {
          order_id: "order_1",
          shipping_option_id: "so_1",
          items: [{ id: "line_1", quantity: 2 }],
          additional_data: { lastmile: { lock_owner: "owner", attempt: 1 } },
        },
      },
      row: { write: "start", details: {} },
    })
  })

  it("waits for the merchant, unless they asked to retry", () => {
    const waiting = task({ status: "needs_attention", last_error: "The rate is gone" })
    expect(plan(orderRead(), waiting).plan).toEqual({
      action: "skip",
      outcome: { status: "needs_attention", reason: "The rate is gone" },
    })
    expect(plan(orderRead(), waiting, { retry_needs_attention: true }).plan.action).toBe("fulfil")
  })

  it("records a booking a fulfillment holds that no row records, never booking it again", () => {
    const live = [{ id: "ful_9", data: {}, booking: { taskId: 77, provider: "lastmile" as const } }]
    expect(bookedRowsNeeded(orderRead({ live }), task())).toBe(true)
    expect(plan(orderRead({ live }), task(), { booked_task_ids: [] })).toMatchObject({
      plan: { action: "skip", outcome: { status: "already_booked" } },
      row: { write: "booked_from_fulfillment", fulfillment_id: "ful_9", booking: { taskId: 77 } },
    })
    // Another delivery of the order holds that task: this one is still to book.
    expect(plan(orderRead({ live }), task(), { booked_task_ids: ["77"] }).plan.action).toBe("fulfil")
  })

  it("books a fulfillment left waiting for its booking, or has the merchant cancel one of another delivery", () => {
    const live = [{ id: "ful_p", data: { provider: "lastmile", status: "pending_booking" }, booking: null }]
    const same = { id: "ful_p", identity: { action: "book" as const, ...read, fulfillment_id: "ful_p" } }
    expect(plan(orderRead({ live, pending: same })).plan).toMatchObject({
      action: "book",
      read: { fulfillment_id: "ful_p" },
    })
    expect(plan(orderRead({ live, pending: null }))).toMatchObject({
      plan: { action: "skip", outcome: { status: "needs_attention", reason: expect.stringContaining("ful_p") } },
      row: { write: "needs_attention" },
    })
  })

  it("says nothing is left to book when every item was fulfilled another way", () => {
    expect(plan(orderRead({ items: [] }))).toEqual({
      plan: { action: "skip", outcome: { status: "nothing_to_book" } },
      row: { write: "nothing_to_book" },
    })
  })
})

describe("a return", () => {
  const returnRead = (overrides = {}) => ({
    kind: "return" as const,
    read: { ...read, origin: "return" as const, cancelled: false, held: null, ...overrides },
  })

  it("never posts an interrupted attempt blindly, and looks an earlier one up", () => {
    expect(planBooking({ reads: returnRead(), task: task(), lock_owner: "o" }).plan).toMatchObject({
      action: "book",
      subject: { lookupFirst: false, mustNotPost: false },
    })
    expect(
      planBooking({ reads: returnRead(), task: task({ status: "booking", attempts: 1 }), lock_owner: "o" }).plan
    ).toMatchObject({ subject: { lookupFirst: true, mustNotPost: true } })
  })

  it("records the booking its fulfillment holds when the row learnt that task", () => {
    const held = { taskId: 5, provider: "lastmile" as const }
    expect(planBooking({ reads: returnRead({ held }), task: task({ task_id: "5" }), lock_owner: "o" })).toMatchObject({
      plan: { action: "skip", outcome: { status: "already_booked" } },
      row: { write: "booked_from_fulfillment", fulfillment_id: "ful_1" },
    })
  })
})

describe("what the merchant's Retry books", () => {
  const row = {
    status: "failed",
    kind: "delivery" as const,
    origin: "exchange",
    order_id: "order_1",
    merchant_order_id: "oexc_1",
    return_id: null,
    task_id: null,
  }

  it("books a replacement under its own reference, a return by its id", () => {
    expect(retryTargetOf(row)).toEqual({ kind: "order", order_id: "order_1", reference_id: "oexc_1" })
    expect(deliveryTargetOf({ ...row, origin: "order", merchant_order_id: "order_1" })).toEqual({
      kind: "order",
      order_id: "order_1",
    })
    expect(retryTargetOf({ ...row, kind: "return", return_id: "ret_1" })).toEqual({
      kind: "return",
      return_id: "ret_1",
    })
  })

  it("refuses what is booked, cancelled, or was fulfilled by hand", () => {
    expect(retryTargetOf({ ...row, status: "booked", task_id: "9" })).toEqual({
      refused: "This is booked already as task 9",
    })
    expect(retryTargetOf({ ...row, status: "cancelled" })).toMatchObject({
      refused: expect.stringContaining("cancelled"),
    })
    expect(retryTargetOf({ ...row, origin: "part" })).toMatchObject({ refused: expect.stringContaining("by hand") })
    expect(retryTargetOf({ ...row, kind: "return" })).toEqual({ refused: "This return task names no return" })
  })
})

describe("what a row says a booking came to", () => {
  const row = {
    id: "lmtask_1",
    status: "booked",
    task_id: "1001",
    adopted: true,
    last_error: null,
    next_attempt_at: null,
  }

  it("reads booked, waiting, retried and under way", () => {
    expect(outcomeOfRow(row)).toEqual({ status: "booked", task_row_id: "lmtask_1", task_id: "1001", adopted: true })
    expect(outcomeOfRow({ ...row, status: "needs_attention", last_error: "gone" })).toEqual({
      status: "needs_attention",
      reason: "gone",
    })
    const next = new Date("2026-12-01T09:00:00.000Z")
    expect(outcomeOfRow({ ...row, status: "failed", last_error: "503", next_attempt_at: next })).toEqual({
      status: "failed",
      reason: "503",
      next_attempt_at: "2026-12-01T09:00:00.000Z",
    })
    expect(outcomeOfRow({ ...row, status: "booking", task_id: null })).toMatchObject({ status: "busy" })
  })
})
