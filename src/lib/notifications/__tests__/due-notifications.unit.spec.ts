import { StatusTable } from "../../tracking/status-table"
import { withStatusEntry } from "../../tracking/task-history"
import {
  FAILED_ATTEMPTS_BEFORE_FEED,
  MAX_SHOPPER_MESSAGES,
  type NotifiableTask,
  planNotifications,
  stepKeyOf,
  shopperStepOf,
  taskModeOf,
} from "../due-notifications"
import { type NotificationRecord, readNotificationRecord, withFailure, withSent } from "../notification-record"
import { resolveNotificationOptions, notificationOptionsSchema } from "../notification-options"

const BOOKED_AT = "2026-12-01T09:00:00.000Z"
const at = (minutes: number) => new Date(Date.parse(BOOKED_AT) + minutes * 60_000)

const options = (settings: Record<string, unknown> = {}) =>
  resolveNotificationOptions(notificationOptionsSchema.parse(settings), new StatusTable())

function task(overrides: Partial<NotifiableTask> & { statuses?: string[] } = {}): NotifiableTask {
  const { statuses = [], ...rest } = overrides
  return {
    id: "lmtask_1",
    mode: "delivery",
    status: "booked",
    attempts: 1,
    booked_at: BOOKED_AT,
    tracking_state: "awaiting",
    service_status: statuses.at(-1) ?? "NOT_STARTED",
    status_history: {
      entries: [
        { value: "NOT_STARTED", at: BOOKED_AT },
        ...statuses.map((value, i) => ({ value, at: at(10 * (i + 1)).toISOString(), source: "webhook" })),
      ],
    },
    cancellation: null,
    ...rest,
  }
}

const empty = (): NotificationRecord => readNotificationRecord(null)
const keys = (t: NotifiableTask, record = empty(), now = at(60), settings = {}) =>
  planNotifications(t, record, options(settings), now).due.map((m) => m.key)

describe("which messages a task is due", () => {
  it("tells a delivery its latest step only: booked, then out for delivery, then delivered", () => {
    expect(keys(task())).toEqual(["delivery_booked"])
    expect(keys(task({ statuses: ["PICKED_UP", "IN_TRANSIT"] }))).toEqual(["delivery_booked"])
    expect(keys(task({ statuses: ["PICKED_UP", "OUT_FOR_DELIVERY"] }))).toEqual(["delivery_out_for_delivery"])
    // A poll that found it delivered at once: only delivered, never the steps it skipped.
    expect(keys(task({ statuses: ["OUT_FOR_DELIVERY", "DELIVERED"] }))).toEqual(["delivery_delivered"])
  })

  it("sends nothing again once sent, and nothing older after something newer", () => {
    let record = withSent(empty(), "delivery_delivered", { at: at(40).toISOString(), channel: "email", template: "t" })
    // A late OUT_FOR_DELIVERY, read after DELIVERED (a webhook out of order): no step.
    const late = task({ statuses: ["OUT_FOR_DELIVERY", "DELIVERED", "OUT_FOR_DELIVERY", "IN_TRANSIT"] })
    expect(keys(late, record)).toEqual([])
    record = withSent(empty(), "delivery_out_for_delivery", {
      at: at(20).toISOString(),
      channel: "email",
      template: "t",
    })
    expect(keys(task({ statuses: ["OUT_FOR_DELIVERY", "OUT_FOR_DELIVERY"] }), record)).toEqual([])
  })

  it("tells each failed attempt, the merchant too, and a new trip out after one", () => {
    const failed = task({ statuses: ["OUT_FOR_DELIVERY", "FAILED_ATTEMPT"] })
    expect(planNotifications(failed, empty(), options(), at(60)).due).toEqual([
      expect.objectContaining({ key: "delivery_problem", audience: "shopper", status: "FAILED_ATTEMPT" }),
      expect.objectContaining({ key: "merchant_delivery_problem", audience: "merchant" }),
    ])
    expect(keys(task({ statuses: ["OUT_FOR_DELIVERY", "FAILED_ATTEMPT", "OUT_FOR_DELIVERY"] }))).toEqual([
      "delivery_out_for_delivery:2",
    ])
    expect(
      keys(task({ statuses: ["OUT_FOR_DELIVERY", "FAILED_ATTEMPT", "OUT_FOR_DELIVERY", "DELAYED"] }), empty(), at(80))
    ).toEqual(["delivery_problem:2", "merchant_delivery_problem:2"])
    // A problem after delivery is none of the shopper's business any more.
    expect(keys(task({ statuses: ["DELIVERED", "FAILED_ATTEMPT"] }))).toEqual(["delivery_delivered"])
  })

  it("makes a collection ready, reminds after the delay (telling the merchant), then collected", () => {
    const ready = task({ mode: "collection", statuses: ["READY_FOR_COLLECTION"] })
    expect(keys(ready)).toEqual(["collection_ready"])
    // PICKED_UP is shipped for Medusa, but not ready for the shopper.
    expect(keys(task({ mode: "collection", statuses: ["PICKED_UP"] }))).toEqual(["collection_booked"])
    const sent = withSent(empty(), "collection_ready", { at: at(10).toISOString(), channel: "email", template: "t" })
    const plan = planNotifications(ready, sent, options(), at(60))
    expect(plan.due).toEqual([])
    expect(plan.next_check_at).toBe(new Date(at(10).getTime() + 2 * 86_400_000).toISOString())
    const twoDaysOn = new Date(at(10).getTime() + 2 * 86_400_000 + 60_000)
    expect(keys(ready, sent, twoDaysOn)).toEqual(["collection_reminder", "merchant_not_collected"])
    expect(keys(ready, sent, twoDaysOn, { collection_reminder_after: "36h" })).toEqual([
      "collection_reminder",
      "merchant_not_collected",
    ])
    expect(keys(ready, sent, twoDaysOn, { collection_reminder_after: false })).toEqual([])
    const collected = task({ mode: "collection", statuses: ["READY_FOR_COLLECTION", "COLLECTED_BY_CUSTOMER"] })
    expect(keys(collected, sent)).toEqual(["collection_collected"])
  })

  it("reminds a held collection at half its hold, tells the merchant when it is up, and each extension to the shopper", () => {
    const held = {
      code: "ACE479",
      hold_days: 7,
      ready_at: at(10).toISOString(),
      collect_by: at(10 + 8 * 24 * 60).toISOString(),
      extensions: [] as { at: string; days: number; collect_by: string; actor_id: string | null }[],
      handed_over: null,
      wrong_codes: [],
    }
    const ready = task({ mode: "collection", statuses: ["READY_FOR_COLLECTION"], collection: held })
    const sent = (keysSent: string[], when: number) =>
      keysSent.reduce(
        (r, key) => withSent(r, key, { at: at(when).toISOString(), channel: "email", template: "t" }),
        empty()
      )
    const afterReady = sent(["collection_ready"], 10)
    // Half of eight days: four days on, the reminder only; the plan looks again then.
    expect(planNotifications(ready, afterReady, options(), at(60)).next_check_at).toBe(
      at(10 + 4 * 24 * 60).toISOString()
    )
    expect(keys(ready, afterReady, at(10 + 4 * 24 * 60 + 1))).toEqual(["collection_reminder"])
    const afterReminder = withSent(afterReady, "collection_reminder", {
      at: at(10).toISOString(),
      channel: "email",
      template: "t",
    })
    expect(planNotifications(ready, afterReminder, options(), at(10 + 5 * 24 * 60)).next_check_at).toBe(held.collect_by)
    // The hold is up: the merchant, once (the shopper's last step is still the reminder).
    const up = at(10 + 8 * 24 * 60 + 1)
    expect(keys(ready, afterReminder, up)).toEqual(["merchant_not_collected"])
    const told = withSent(afterReminder, "merchant_not_collected", {
      at: up.toISOString(),
      channel: "feed",
      template: "t",
    })
    expect(keys(ready, told, up)).toEqual([])
    // Extended by three days: the shopper is told, and the merchant again when the new hold ends.
    const extension = { at: up.toISOString(), days: 3, collect_by: at(10 + 11 * 24 * 60).toISOString(), actor_id: null }
    const extended = task({
      mode: "collection",
      statuses: ["READY_FOR_COLLECTION"],
      collection: { ...held, extensions: [extension] },
    })
    expect(keys(extended, told, up)).toEqual(["collection_extended"])
    const afterExtension = withSent(told, "collection_extended", {
      at: up.toISOString(),
      channel: "email",
      template: "t",
    })
    // Its own reminder at half of it (a day and a half on), then the merchant again when it ends.
    expect(keys(extended, afterExtension, at(10 + 8 * 24 * 60 + 36 * 60 + 2))).toEqual(["collection_reminder:2"])
    expect(keys(extended, afterExtension, at(10 + 11 * 24 * 60 + 1))).toEqual(["merchant_not_collected:2"])
    // An explicit delay still counts from each hold's start, and false turns the reminder off.
    expect(keys(ready, afterReady, at(10 + 36 * 60 + 1), { collection_reminder_after: "36h" })).toEqual([
      "collection_reminder",
    ])
    expect(keys(ready, afterReady, at(10 + 5 * 24 * 60), { collection_reminder_after: false })).toEqual([])
    // Cancelled as not collected: no reminder and no alert, the hold is over.
    const cancelled = { ...ready, tracking_state: "cancelled", cancellation: { by: "merchant" } }
    expect(keys(cancelled, afterReady, at(10 + 4 * 24 * 60 + 1))).toEqual([])
    expect(keys(cancelled, afterReminder, up)).toEqual([])
    expect(planNotifications(cancelled, afterReminder, options(), at(60)).next_check_at).toBeNull()
    // Collected: nothing more, whatever the hold says.
    const collected = task({ mode: "collection", statuses: ["READY_FOR_COLLECTION", "HANDED_OVER"], collection: held })
    expect(keys(collected, afterReady, at(60))).toEqual(["collection_collected"])
    expect(
      keys(
        collected,
        withSent(afterReady, "collection_collected", { at: at(60).toISOString(), channel: "email", template: "t" }),
        up
      )
    ).toEqual([])
  })

  it("reads a collection's COMPLETED as collected, and a return's delivery as received", () => {
    expect(keys(task({ mode: "collection", statuses: ["READY_FOR_PICKUP", "COMPLETED"] }))).toEqual([
      "collection_collected",
    ])
    expect(keys(task({ mode: "return" }))).toEqual(["return_booked"])
    expect(keys(task({ mode: "return", statuses: ["IN_TRANSIT", "DELIVERED"] }))).toEqual(["return_received"])
  })

  it("follows the merchant's status_events and status_map", () => {
    const settings = { status_events: { READY: "ready_for_collection", OUT_FOR_DELIVERY: "none" } }
    const ready = task({ mode: "collection", statuses: ["READY"] })
    expect(keys(ready, empty(), at(60), settings)).toEqual(["collection_ready"])
    expect(keys(task({ statuses: ["OUT_FOR_DELIVERY"] }), empty(), at(60), settings)).toEqual(["delivery_booked"])
  })

  it("tells the merchant of a booking that needs them, each time, and of one still failing after a few attempts", () => {
    const history = (values: string[]) => ({ entries: values.map((value, i) => ({ value, at: at(i).toISOString() })) })
    const attention = task({ status: "needs_attention", booked_at: null, status_history: history(["needs_attention"]) })
    expect(keys(attention)).toEqual(["merchant_booking_needs_attention"])
    const again = { ...attention, status_history: history(["needs_attention", "needs_attention"]) }
    expect(keys(again)).toEqual(["merchant_booking_needs_attention:2"])
    const failing = task({ status: "failed", attempts: FAILED_ATTEMPTS_BEFORE_FEED - 1, booked_at: null })
    expect(keys(failing)).toEqual([])
    expect(keys({ ...failing, attempts: FAILED_ATTEMPTS_BEFORE_FEED })).toEqual(["merchant_booking_failed"])
    // Booked since: the failure is not the merchant's business any more.
    expect(keys({ ...failing, status: "booked", booked_at: BOOKED_AT })).toEqual(["delivery_booked"])
  })

  it("tells the merchant once when the service cancels, unless the merchant did", () => {
    const cancelled = task({ statuses: ["CANCELLED"], tracking_state: "cancelled", cancellation: { by: "service" } })
    expect(keys(cancelled)).toEqual(["merchant_task_cancelled"])
    expect(keys({ ...cancelled, cancellation: { by: "merchant" } })).toEqual([])
  })

  it("retries a failed send after its backoff, then gives up", () => {
    const t = task({ statuses: ["OUT_FOR_DELIVERY"] })
    let record = withFailure(empty(), "delivery_out_for_delivery", "provider down", at(20))
    const plan = planNotifications(t, record, options(), at(20))
    expect(plan.due).toEqual([])
    expect(plan.next_check_at).toBe(at(21).toISOString())
    expect(keys(t, record, at(21))).toEqual(["delivery_out_for_delivery"])
    for (let attempt = 2; attempt <= 5; attempt++) {
      record = withFailure(record, "delivery_out_for_delivery", "provider down", at(20 + attempt))
    }
    expect(record.failed.delivery_out_for_delivery.next_at).toBeNull()
    expect(planNotifications(t, record, options(), at(600))).toMatchObject({ due: [], next_check_at: null })
  })

  it("drops a failed message once the task has moved past it", () => {
    const record = withFailure(empty(), "delivery_out_for_delivery", "provider down", at(20))
    const plan = planNotifications(task({ statuses: ["OUT_FOR_DELIVERY", "DELIVERED"] }), record, options(), at(30))
    expect(plan).toMatchObject({ superseded: ["delivery_out_for_delivery"], due: [{ key: "delivery_delivered" }] })
  })

  it("does not tell a step learnt long ago, and sends nothing when off or for events left out", () => {
    const old = planNotifications(task({ statuses: ["OUT_FOR_DELIVERY"] }), empty(), options(), at(3 * 24 * 60))
    expect(old.due).toEqual([])
    expect(old.stale.map((m) => m.key)).toEqual(["delivery_out_for_delivery"])
    expect(keys(task(), empty(), at(60), { enabled: false })).toEqual([])
    expect(
      planNotifications(
        task(),
        empty(),
        resolveNotificationOptions(notificationOptionsSchema.parse(false), new StatusTable()),
        at(60)
      ).due
    ).toEqual([])
    expect(keys(task(), empty(), at(60), { events: ["delivery_delivered"] })).toEqual([])
  })

  it("finds a task's mode from its row, or from its kind and rate for rows booked earlier", () => {
    expect(taskModeOf({ mode: "collection", kind: "delivery" })).toBe("collection")
    expect(taskModeOf({ mode: null, kind: "delivery", rate_code: "SVC_COL" })).toBe("collection")
    expect(taskModeOf({ mode: null, kind: "delivery", rate_code: "NEXT_DAY" })).toBe("delivery")
    expect(taskModeOf({ kind: "return" })).toBe("return")
  })
})

describe("the step a shopper's tracking page names", () => {
  const step = (t: NotifiableTask, settings = {}) => shopperStepOf(t, options(settings).statusEvents, at(60))

  it("follows the messages' latest step: out, a problem, out again, then none once delivered", () => {
    expect(step(task())).toBeNull()
    expect(step(task({ statuses: ["PICKED_UP", "IN_TRANSIT"] }))).toBeNull()
    expect(step(task({ statuses: ["OUT_FOR_DELIVERY"] }))).toBe("out_for_delivery")
    expect(step(task({ statuses: ["OUT_FOR_DELIVERY", "FAILED_ATTEMPT"] }))).toBe("problem")
    expect(step(task({ statuses: ["OUT_FOR_DELIVERY", "FAILED_ATTEMPT", "OUT_FOR_DELIVERY"] }))).toBe(
      "out_for_delivery"
    )
    // A late OUT_FOR_DELIVERY read after DELIVERED names no step.
    expect(step(task({ statuses: ["OUT_FOR_DELIVERY", "DELIVERED", "OUT_FOR_DELIVERY"] }))).toBeNull()
  })

  it("says a collection is ready until it is collected, and names a merchant's own status", () => {
    const collection = (statuses: string[]) => task({ mode: "collection", statuses })
    expect(step(collection(["READY_FOR_COLLECTION"]))).toBe("ready_for_collection")
    expect(step(collection(["READY_FOR_COLLECTION", "COLLECTED_BY_CUSTOMER"]))).toBeNull()
    expect(step(collection(["AT_COUNTER"]))).toBeNull()
    expect(step(collection(["AT_COUNTER"]), { status_events: { AT_COUNTER: "ready_for_collection" } })).toBe(
      "ready_for_collection"
    )
  })

  it("names nothing for a task not booked", () => {
    expect(step(task({ status: "needs_attention", statuses: ["OUT_FOR_DELIVERY"] }))).toBeNull()
  })

  it("tells one failed attempt once, however many failure statuses report it; another only after a new trip out", () => {
    const four = task({ statuses: ["OUT_FOR_DELIVERY", "FAILED", "FAILED_ATTEMPT", "DELIVERY_FAILED", "ATTEMPTED"] })
    expect(keys(four)).toEqual(["delivery_problem", "merchant_delivery_problem"])
    let record = empty()
    for (const key of ["delivery_problem", "merchant_delivery_problem"]) {
      record = withSent(record, key, { at: at(50).toISOString(), channel: "email", template: "t" })
    }
    expect(keys(four, record)).toEqual([])
    // A delay on the same trip is news of another kind; out again, then failing again, is a new problem.
    expect(keys(task({ statuses: ["OUT_FOR_DELIVERY", "FAILED", "DELAYED"] }), record)).toEqual([
      "delivery_problem:2",
      "merchant_delivery_problem:2",
    ])
    const again = task({ statuses: ["OUT_FOR_DELIVERY", "FAILED", "ATTEMPTED", "OUT_FOR_DELIVERY", "FAILED"] })
    expect(keys(again, record)).toEqual(["delivery_problem:2", "merchant_delivery_problem:2"])
    const out = planNotifications(
      task({ statuses: ["OUT_FOR_DELIVERY", "FAILED", "OUT_FOR_DELIVERY"] }),
      record,
      options(),
      at(60)
    )
    expect(out.due).toEqual([
      expect.objectContaining({ key: "delivery_out_for_delivery:2", after_problem_at: at(20).toISOString() }),
    ])
  })

  it("tells a flapping task's shopper at most 10 times, from a history that records each status once", () => {
    let history: { entries: unknown[] } = { entries: [{ value: "NOT_STARTED", at: BOOKED_AT }] }
    let record = withSent(empty(), "delivery_booked", { at: at(1).toISOString(), channel: "email", template: "t" })
    const flapping = () => task({ service_status: null, status_history: history })
    for (let flip = 0; flip < 30; flip++) {
      const value = flip % 2 === 0 ? "OUT_FOR_DELIVERY" : "FAILED_ATTEMPT"
      history = withStatusEntry(history, { value, at: at(10 + flip), source: "webhook", phase: "shipped" })
      for (const d of planNotifications(flapping(), record, options(), at(10 + flip)).due) {
        record = withSent(record, d.delivery_key, { at: at(10 + flip).toISOString(), channel: "email", template: "t" })
      }
    }
    const shopperSteps = new Set(
      Object.keys(record.sent)
        .map(stepKeyOf)
        .filter((k) => !k.startsWith("merchant"))
    )
    expect(shopperSteps.size).toBe(MAX_SHOPPER_MESSAGES)
    expect(history.entries).toHaveLength(3)
    expect(history.entries[1]).toMatchObject({ value: "OUT_FOR_DELIVERY", times: 15 })
    const plan = planNotifications(flapping(), record, options(), at(45))
    expect(plan.due.filter((d) => d.audience === "shopper")).toEqual([])
  })

  it("sends a step on each of its channels: the shopper's email and phone, the bell and the merchant's addresses", () => {
    const settings = { sms_channel: "sms", merchant_to: ["Ops@Shop.example", "owner@shop.example"] }
    const failed = task({ statuses: ["OUT_FOR_DELIVERY", "FAILED_ATTEMPT"] })
    const due = planNotifications(failed, empty(), options(settings), at(60)).due
    expect(due.map((d) => [d.delivery_key, d.via, d.channel, d.address])).toEqual([
      ["delivery_problem", "email", "email", null],
      ["delivery_problem|sms", "sms", "sms", null],
      ["merchant_delivery_problem", "feed", "feed", null],
      ["merchant_delivery_problem|to:ops@shop.example", "merchant_email", "email", "ops@shop.example"],
      ["merchant_delivery_problem|to:owner@shop.example", "merchant_email", "email", "owner@shop.example"],
    ])
    // A step that does not go by text has no SMS; a held shopper waits, the merchant does not.
    expect(keys(task(), empty(), at(60), settings)).toEqual(["delivery_booked"])
    const held = planNotifications(failed, empty(), options(settings), at(60), { holdShopperUntil: at(62) })
    expect(held.due.map((d) => d.via)).toEqual(["feed", "merchant_email", "merchant_email"])
    expect(held.next_check_at).toBe(at(62).toISOString())
  })
})
