import type { LastmileOrderBookingResponse } from "../contract.js"
import { LastmileStorefrontError } from "../errors.js"
import { type LastmileOrderTracking, readOrderTracking } from "../tracking.js"
import { isSettled, waitForTracking } from "../wait.js"
import { booked, order } from "./orders.js"

const booking = (
  state: LastmileOrderBookingResponse["booking"]["state"],
  books_on: "order_placed" | "fulfillment" = "order_placed"
): LastmileOrderBookingResponse => ({ order_id: "order_1", booking: { state, books_on } })

const pending = (state: LastmileOrderBookingResponse["booking"]["state"] = "booking") =>
  readOrderTracking(order(), booking(state))
const bookedTracking = () => readOrderTracking(order(undefined, [booked()]))

/** A read that answers from `answers` in turn (the last one again when they run out), counting its calls. */
function reads(...answers: (LastmileOrderTracking | null | Error)[]) {
  const calls: number[] = []
  const read = async () => {
    calls.push(Date.now())
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]
    if (answer instanceof Error) {
      throw answer
    }
    return answer
  }
  return { read, calls }
}

describe("isSettled", () => {
  it("waits for a booking under way, and stops once booked or when it waits for the shop", () => {
    expect(isSettled(pending("booking"))).toBe(false)
    expect(isSettled(pending("not_started"))).toBe(false)
    expect(isSettled(bookedTracking())).toBe(true)
    expect(isSettled(pending("needs_attention"))).toBe(true)
    expect(isSettled(pending("retrying"))).toBe(true)
    expect(isSettled(readOrderTracking(order(), booking("not_started", "fulfillment")))).toBe(true)
    expect(isSettled(pending("cancelled"))).toBe(true)
    expect(isSettled(null)).toBe(true)
  })

  it("follows a booked order to its end with `done`", () => {
    expect(isSettled(bookedTracking(), "done")).toBe(false)
    expect(isSettled(pending("retrying"), "done")).toBe(false)
    expect(isSettled(pending("needs_attention"), "done")).toBe(true)
    expect(
      isSettled(readOrderTracking(order(undefined, [{ ...booked(), delivered_at: "2026-07-25T12:00:00Z" }])), "done")
    ).toBe(true)
  })
})

describe("waitForTracking", () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date("2026-07-24T09:00:00.000Z") }))
  afterEach(() => jest.useRealTimers())

  it("reads again with a growing pause until the order is booked, telling each change once", async () => {
    const { read, calls } = reads(pending(), pending(), pending(), bookedTracking())
    const updates: (string | undefined)[] = []
    const waiting = waitForTracking(read, { onUpdate: (t) => updates.push(t?.status) })
    await jest.advanceTimersByTimeAsync(10_000)
    await expect(waiting).resolves.toMatchObject({ outcome: "settled", tracking: { status: "booked" } })
    const t0 = calls[0]
    expect(calls.map((at) => at - t0)).toEqual([0, 1000, 2500, 4750])
    expect(updates).toEqual(["pending", "booked"])
  })

  it("stops at a booking that waits for the shop, with the tracking that says so", async () => {
    const { read, calls } = reads(pending(), pending("needs_attention"))
    const waiting = waitForTracking(read)
    await jest.advanceTimersByTimeAsync(1000)
    await expect(waiting).resolves.toMatchObject({ outcome: "settled", tracking: { booking: "needs_attention" } })
    expect(calls).toHaveLength(2)
  })

  it("never waits longer than maxDelayMs between reads, and gives up after timeoutMs", async () => {
    const { read, calls } = reads(pending())
    const waiting = waitForTracking(read, { firstDelayMs: 1000, backoff: 2, maxDelayMs: 4000, timeoutMs: 20_000 })
    await jest.advanceTimersByTimeAsync(30_000)
    await expect(waiting).resolves.toMatchObject({ outcome: "timeout", tracking: { status: "pending" } })
    const t0 = calls[0]
    expect(calls.map((at) => at - t0)).toEqual([0, 1000, 3000, 7000, 11_000, 15_000, 19_000])
  })

  it("stops when the page's signal aborts, without another read", async () => {
    const { read, calls } = reads(pending())
    const controller = new AbortController()
    const waiting = waitForTracking(read, { signal: controller.signal })
    await jest.advanceTimersByTimeAsync(1000)
    controller.abort()
    await expect(waiting).resolves.toMatchObject({ outcome: "aborted" })
    await jest.advanceTimersByTimeAsync(60_000)
    expect(calls).toHaveLength(2)
  })

  it("waits out a backend that fails for a moment, and rejects a fault of the set-up", async () => {
    const down = new LastmileStorefrontError("down", 503, { reason: "server_error" })
    const transient = reads(down, pending(), bookedTracking())
    const errors: unknown[] = []
    const waiting = waitForTracking(transient.read, { onError: (error) => errors.push(error) })
    await jest.advanceTimersByTimeAsync(5000)
    await expect(waiting).resolves.toMatchObject({ outcome: "settled" })
    expect(errors).toEqual([down])

    const missing = new LastmileStorefrontError("missing", 404, { reason: "route_missing" })
    await expect(waitForTracking(reads(missing).read)).rejects.toBe(missing)
  })
})

describe("waitForTracking on a page", () => {
  let visibility: DocumentVisibilityState = "visible"
  const listeners = new Set<() => void>()
  const page = {
    get visibilityState() {
      return visibility
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }
  const show = (state: DocumentVisibilityState) => {
    visibility = state
    listeners.forEach((listener) => listener())
  }

  beforeEach(() => {
    jest.useFakeTimers()
    Object.defineProperty(globalThis, "document", { value: page, configurable: true })
  })
  afterEach(() => {
    jest.useRealTimers()
    Reflect.deleteProperty(globalThis, "document")
    visibility = "visible"
  })

  it("reads nothing while the page is hidden, and reads at once when it is shown again", async () => {
    const { read, calls } = reads(pending(), pending(), bookedTracking())
    const waiting = waitForTracking(read)
    await jest.advanceTimersByTimeAsync(0)
    expect(calls).toHaveLength(1)
    show("hidden")
    await jest.advanceTimersByTimeAsync(120_000)
    expect(calls).toHaveLength(1)
    show("visible")
    await jest.advanceTimersByTimeAsync(0)
    expect(calls).toHaveLength(2)
    await jest.advanceTimersByTimeAsync(1500)
    await expect(waiting).resolves.toMatchObject({ outcome: "settled" })
    expect(listeners.size).toBe(0)
  })
})
