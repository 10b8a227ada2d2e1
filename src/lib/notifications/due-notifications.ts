/** Which messages a task is due, from its row alone (decisions 45 and 46). */
import type { TaskHistoryEntry } from "../contracts/admin-api"
import {
  type LastmileNotificationEvent,
  type MerchantEvent,
  type NotificationAudience,
  type ShopperEvent,
  type TaskMode,
  audienceOf,
  type StatusEvents,
  problemKindOf,
} from "./notification-events"
import { type NotificationRecord, isSettled, maySendNow } from "./notification-record"
import type { ReminderTiming, ResolvedNotificationOptions } from "./notification-options"
import { currentCollectBy, readCollectionRecord } from "../collection/collection-hold"

/** The task row's fields the decision reads. */
export interface NotifiableTask {
  id: string
  mode: TaskMode
  /** pending, booking, booked, failed, needs_attention, cancelled. */
  status: string
  attempts: number
  booked_at: Date | string | null
  tracking_state: string
  service_status: string | null
  status_history: { entries?: unknown[] } | null
  cancellation: { by?: unknown } | null
  /** A collection's record at the store (its hold and extensions: decision 65); absent or null for the others. */
  collection?: unknown
}

export interface DueMessage {
  /** The message's key on the task: the event, then `:2`, `:3`… for a step that recurs. */
  key: string
  event: LastmileNotificationEvent
  audience: NotificationAudience
  /** When the task reached the step (ISO 8601). */
  at: string
  /** The service status behind the step, when there is one. */
  status: string | null
  /** The step follows a delivery problem (a new trip out): when that problem was. */
  after_problem_at?: string | null
  /** A collection's reminder or its time up: since when it has waited at the store. */
  since?: string | null
}

/** How a step reaches someone: the shopper's email and phone, the admin's bell, the merchant's own addresses. */
export type Via = "email" | "sms" | "feed" | "merchant_email"

/** One notification of a step: to whom, on which channel, under which key of the record. */
export interface DueDelivery extends DueMessage {
  /** The record's key: the step's key for its first channel, `<key>|sms`, `<key>|to:<address>`. */
  delivery_key: string
  via: Via
  channel: string
  /** The merchant's address, for `merchant_email`. */
  address: string | null
}

export interface NotificationPlan {
  /** What to send now, the merchant's after the shopper's. */
  due: DueDelivery[]
  /** Steps found too old to tell (the task reached them long before the plugin could send). */
  stale: DueDelivery[]
  /** Shopper steps past the task's limit of messages (MAX_SHOPPER_MESSAGES): never sent. */
  capped: DueDelivery[]
  /** Failed messages the task has moved past (a later step, a booking since made): never retried. */
  superseded: string[]
  /** When the task has something to look at again (a retry, the reminder); null when nothing is pending. */
  next_check_at: string | null
}

/** A task tells its shopper at most this many steps, however its status flaps (decision 60). */
export const MAX_SHOPPER_MESSAGES = 10

/** The shopper's steps that also go by text message when `sms_channel` is set. */
export const SMS_EVENTS: readonly ShopperEvent[] = [
  "delivery_out_for_delivery",
  "delivery_problem",
  "collection_ready",
  "collection_reminder",
  "collection_extended",
]

/** The step a record key is about: `delivery_problem:2|sms` → `delivery_problem:2`. */
export function stepKeyOf(deliveryKey: string): string {
  return deliveryKey.split("|")[0]
}

/** A step learnt longer ago than this is not told any more (say, tasks booked before messages were turned on). */
export const STALE_AFTER_MS = 24 * 3_600_000

/** A booking that keeps failing reaches the merchant's feed after this many attempts (the job retries it meanwhile). */
export const FAILED_ATTEMPTS_BEFORE_FEED = 3

interface Milestone {
  event: ShopperEvent | "closed"
  occurrence: number
  at: string
  status: string | null
  /** A new trip out after a problem: when the problem was. */
  after_problem_at?: string | null
  /** A collection's reminder: since when it has waited. */
  since?: string | null
}

const RANKS: Record<TaskMode, Partial<Record<ShopperEvent, number>>> = {
  delivery: { delivery_booked: 0, delivery_out_for_delivery: 1, delivery_delivered: 2 },
  collection: {
    collection_booked: 0,
    collection_ready: 1,
    collection_reminder: 2,
    collection_extended: 2,
    collection_collected: 3,
  },
  return: { return_booked: 0, return_received: 1 },
}

const BOOKED: Record<TaskMode, ShopperEvent> = {
  delivery: "delivery_booked",
  collection: "collection_booked",
  return: "return_booked",
}
const DONE: Record<TaskMode, ShopperEvent> = {
  delivery: "delivery_delivered",
  collection: "collection_collected",
  return: "return_received",
}

function iso(value: Date | string | null | undefined, fallback: Date): string {
  const time = value ? new Date(value).getTime() : NaN
  return Number.isNaN(time) ? fallback.toISOString() : new Date(time).toISOString()
}

function historyOf(task: NotifiableTask): TaskHistoryEntry[] {
  return (task.status_history?.entries ?? []).filter(
    (e): e is TaskHistoryEntry => !!e && typeof e === "object" && typeof (e as TaskHistoryEntry).value === "string"
  )
}

/**
 * The statuses the service reported, oldest first: the entries a tracking
 * sync wrote (they name their source), a status that came back again once per
 * time it came (its entry keeps when: decision 60). Before the first sync, the
 * status the booking answered with stands in.
 */
export function serviceStatuses(
  task: Pick<NotifiableTask, "status_history" | "service_status" | "booked_at">,
  now: Date
): { value: string; at: string }[] {
  const read = historyOf(task as NotifiableTask)
    .filter((e) => typeof e.source === "string")
    .flatMap((e, order) =>
      [e.at, ...(e.again_at ?? [])].map((at, again) => ({ value: e.value, at: iso(at, now), order, again }))
    )
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.order - b.order || a.again - b.again)
    .map(({ value, at }) => ({ value, at }))
  if (read.length || !task.service_status) {
    return read
  }
  return [{ value: task.service_status, at: iso(task.booked_at, now) }]
}

/**
 * The shopper's steps a booked task reached, in order, each only when it
 * moved the task forward: booked; then per mode out for delivery, a problem
 * (each one, until delivered), delivered; or ready, the reminder (time
 * passing), collected; or received. A cancellation closes the list.
 */
export function shopperMilestones(
  task: NotifiableTask,
  statusEvents: StatusEvents,
  reminder: ReminderTiming,
  now: Date
): Milestone[] {
  if (task.status !== "booked") {
    return []
  }
  const mode = task.mode
  const ranks = RANKS[mode]
  const done = ranks[DONE[mode]] ?? 0
  const milestones: Milestone[] = [{ event: BOOKED[mode], occurrence: 1, at: iso(task.booked_at, now), status: null }]
  const counts = new Map<string, number>()
  const push = (event: ShopperEvent, at: string, status: string, after_problem_at: string | null = null) => {
    const occurrence = (counts.get(event) ?? 0) + 1
    counts.set(event, occurrence)
    milestones.push({ event, occurrence, at, status, after_problem_at })
  }
  let rank = 0
  // The trip out the parcel is on, and the problems told on it: one message per kind of problem and trip, however
  // many statuses report it (FAILED, FAILED_ATTEMPT, DELIVERY_FAILED, ATTEMPTED are one failed attempt).
  let problemAt: string | null = null
  let toldThisTrip = new Set<string>()
  for (const { value, at } of serviceStatuses(task, now)) {
    const step = statusEvents.stepOf(value, mode)
    if (step === "cancelled") {
      milestones.push({ event: "closed", occurrence: 1, at, status: value })
      return milestones
    }
    if (step === "done" && rank < done) {
      rank = done
      push(DONE[mode], at, value)
    } else if (step === "out_for_delivery" && (rank < 1 || (rank === 1 && problemAt))) {
      // Out again after a problem is a new trip; a late "out for delivery" is none.
      rank = 1
      push("delivery_out_for_delivery", at, value, problemAt)
      problemAt = null
      toldThisTrip = new Set()
    } else if (step === "problem" && rank < done) {
      const kind = problemKindOf(value)
      problemAt ??= at
      if (!toldThisTrip.has(kind)) {
        toldThisTrip.add(kind)
        push("delivery_problem", at, value)
      }
    } else if (step === "ready_for_collection" && rank < 1) {
      rank = 1
      push("collection_ready", at, value)
    }
  }
  const latest = milestones[milestones.length - 1]
  if (mode === "collection" && latest.event === "collection_ready" && !cancelledInMedusa(task)) {
    for (const step of holdSteps(task, latest, reminder)) {
      if (now.getTime() >= Date.parse(step.at)) {
        milestones.push(step)
      }
    }
  }
  return milestones
}

/** Medusa's side was cancelled (the merchant cancelled it, say as not collected): its hold is over. */
function cancelledInMedusa(task: Pick<NotifiableTask, "tracking_state" | "cancellation">): boolean {
  return task.tracking_state === "cancelled" || !!task.cancellation
}

/** One hold of a ready collection: the first, from ready to its collect-by, then each extension's. */
interface HoldPeriod {
  start: string
  end: string | null
}

function holdPeriods(task: NotifiableTask, readyAt: string): HoldPeriod[] {
  const record = readCollectionRecord(task.collection)
  if (!record?.collect_by) {
    return [{ start: readyAt, end: null }]
  }
  return [
    { start: record.ready_at ?? readyAt, end: record.collect_by },
    ...record.extensions.map((e) => ({ start: e.at, end: e.collect_by })),
  ]
}

/** A hold kept before the plugin held collections has no end to take half of: its reminder comes after this long. */
const UNHELD_REMINDER_MS = 2 * 86_400_000

/** How long into a hold its reminder goes; null: never. */
function reminderDelayMs(reminder: ReminderTiming, start: number, end: number | null): number | null {
  if (reminder !== "half_hold") {
    return reminder
  }
  return end === null ? UNHELD_REMINDER_MS : (end - start) / 2
}

/**
 * The steps a ready collection reaches as time passes (decision 65), due or not yet: each extension, told to the
 * shopper; a reminder in each hold (at its half by default; a hold without a collect-by, kept before the plugin held
 * collections, at `reminder` after ready, two days unless set), unless an extension came first.
 */
export function holdSteps(task: NotifiableTask, ready: Milestone, reminder: ReminderTiming): Milestone[] {
  const periods = holdPeriods(task, ready.at)
  const steps: Milestone[] = []
  periods.forEach((period, i) => {
    if (i > 0) {
      steps.push({ event: "collection_extended", occurrence: i, at: period.start, status: ready.status })
    }
    const start = Date.parse(period.start)
    const end = period.end ? Date.parse(period.end) : null
    const after = reminderDelayMs(reminder, start, end)
    const remindAt = after === null ? null : start + after
    const next = periods[i + 1] ? Date.parse(periods[i + 1].start) : Number.POSITIVE_INFINITY
    if (remindAt !== null && remindAt < Math.min(end ?? Number.POSITIVE_INFINITY, next)) {
      const occurrence = steps.filter((s) => s.event === "collection_reminder").length + 1
      steps.push({
        event: "collection_reminder",
        occurrence,
        at: new Date(remindAt).toISOString(),
        status: ready.status,
        since: ready.at,
      })
    }
  })
  return steps
}

/**
 * A ready collection nobody came for by its collect-by (decision 65): the time up, once per hold (an extension
 * starts another), for the merchant. A task without a collect-by (made ready before the plugin held collections) is
 * told the merchant at its reminder, as before.
 */
function timeUp(task: NotifiableTask, ready: Milestone | undefined, reminder: ReminderTiming, now: Date) {
  if (!ready) {
    return null
  }
  const record = readCollectionRecord(task.collection)
  const periods = holdPeriods(task, ready.at)
  const last = periods[periods.length - 1]
  const since = record?.ready_at ?? ready.at
  if (last.end) {
    return now.getTime() >= Date.parse(last.end) ? { occurrence: periods.length, at: last.end, since } : null
  }
  const legacy = holdSteps(task, ready, reminder).find((s) => s.event === "collection_reminder")
  return legacy && now.getTime() >= Date.parse(legacy.at) ? { occurrence: 1, at: legacy.at, since } : null
}

/** A step the shopper's tracking page names: one between booked and done. */
export type ShopperStep = "out_for_delivery" | "problem" | "ready_for_collection"

const STEP_OF: Partial<Record<Milestone["event"], ShopperStep>> = {
  delivery_out_for_delivery: "out_for_delivery",
  delivery_problem: "problem",
  collection_ready: "ready_for_collection",
  collection_reminder: "ready_for_collection",
  collection_extended: "ready_for_collection",
}

/**
 * Where a booked task stands for its shopper now: the step of its latest
 * milestone, the same the messages follow, so the page never says a step the
 * shopper was told had passed. Null before a step and once done.
 */
export function shopperStepOf(task: NotifiableTask, statusEvents: StatusEvents, now: Date): ShopperStep | null {
  const latest = shopperMilestones(task, statusEvents, null, now).at(-1)
  return latest ? (STEP_OF[latest.event] ?? null) : null
}

function keyOf(event: LastmileNotificationEvent, occurrence: number): string {
  return occurrence > 1 ? `${event}:${occurrence}` : event
}

function message(
  event: LastmileNotificationEvent,
  audience: NotificationAudience,
  occurrence: number,
  at: string,
  status: string | null,
  after_problem_at: string | null = null
): DueMessage {
  return { key: keyOf(event, occurrence), event, audience, at, status, after_problem_at }
}

/** The merchant's messages the task's state calls for now. */
function merchantMessages(
  task: NotifiableTask,
  milestones: Milestone[],
  reminder: ReminderTiming,
  now: Date
): DueMessage[] {
  const latest = milestones[milestones.length - 1]
  const history = historyOf(task)
  const lastOf = (value: string) => history.filter((e) => e.value === value)
  const found: DueMessage[] = []
  const merchant = (event: MerchantEvent, occurrence: number, at: string, status: string | null) =>
    found.push(message(event, "merchant", occurrence, at, status))

  if (task.status === "failed" && task.attempts >= FAILED_ATTEMPTS_BEFORE_FEED) {
    merchant("merchant_booking_failed", 1, iso(lastOf("failed").at(-1)?.at, now), null)
  }
  if (task.status === "needs_attention") {
    const entries = lastOf("needs_attention")
    merchant("merchant_booking_needs_attention", Math.max(1, entries.length), iso(entries.at(-1)?.at, now), null)
  }
  if (latest?.event === "delivery_problem") {
    merchant("merchant_delivery_problem", latest.occurrence, latest.at, latest.status)
  }
  const ready = milestones.find((m) => m.event === "collection_ready")
  const waiting =
    task.mode === "collection" && task.status === "booked" && latest?.event !== "closed" && !cancelledInMedusa(task)
  const up =
    waiting && !milestones.some((m) => m.event === "collection_collected") ? timeUp(task, ready, reminder, now) : null
  if (up) {
    found.push({
      ...message("merchant_not_collected", "merchant", up.occurrence, up.at, ready?.status ?? null),
      since: up.since,
    })
  }
  if (task.status === "booked" && task.tracking_state === "cancelled" && task.cancellation?.by !== "merchant") {
    const at = latest?.event === "closed" ? latest.at : iso(null, now)
    merchant("merchant_task_cancelled", 1, at, latest?.event === "closed" ? latest.status : task.service_status)
  }
  return found
}

/** What the plan reads of the options. */
export type PlanOptions = Pick<
  ResolvedNotificationOptions,
  "enabled" | "events" | "reminder" | "statusEvents" | "channel" | "merchantChannel" | "smsChannel" | "merchantTo"
>

/** The notifications of a step: its first channel, then by text, then to the merchant's own addresses. */
export function deliveriesOf(step: DueMessage, options: PlanOptions): DueDelivery[] {
  if (step.audience === "shopper") {
    const sms =
      options.smsChannel && SMS_EVENTS.includes(step.event as ShopperEvent)
        ? [
            {
              ...step,
              delivery_key: `${step.key}|sms`,
              via: "sms" as const,
              channel: options.smsChannel,
              address: null,
            },
          ]
        : []
    return [{ ...step, delivery_key: step.key, via: "email", channel: options.channel, address: null }, ...sms]
  }
  return [
    { ...step, delivery_key: step.key, via: "feed", channel: options.merchantChannel, address: null },
    ...options.merchantTo.map((address) => ({
      ...step,
      delivery_key: `${step.key}|to:${address}`,
      via: "merchant_email" as const,
      channel: options.channel,
      address,
    })),
  ]
}

/** The shopper steps a task has been told (any channel sent). */
function shopperStepsSent(record: NotificationRecord): Set<string> {
  return new Set(
    Object.keys(record.sent)
      .map(stepKeyOf)
      .filter((key) => audienceOf(key.split(":")[0] as LastmileNotificationEvent) === "shopper")
  )
}

/**
 * What to send now, what is too old or past the limit to send, and when to look again. `holdShopperUntil`: the
 * shopper's messages wait until then (a fulfillment whose creator may yet say `no_notification`), the merchant's go.
 */
export function planNotifications(
  task: NotifiableTask,
  record: NotificationRecord,
  options: PlanOptions,
  now: Date,
  { holdShopperUntil }: { holdShopperUntil?: Date | null } = {}
): NotificationPlan {
  const plan: NotificationPlan = { due: [], stale: [], capped: [], superseded: [], next_check_at: null }
  if (!options.enabled) {
    return plan
  }
  const milestones = shopperMilestones(task, options.statusEvents, options.reminder, now)
  const latest = milestones[milestones.length - 1]
  const steps: DueMessage[] = []
  if (latest && latest.event !== "closed") {
    steps.push({
      ...message(latest.event, "shopper", latest.occurrence, latest.at, latest.status, latest.after_problem_at),
      ...(latest.since ? { since: latest.since } : {}),
    })
  }
  steps.push(...merchantMessages(task, milestones, options.reminder, now))
  const candidates = steps.flatMap((step) => deliveriesOf(step, options))

  const current = new Set(candidates.map((c) => c.delivery_key))
  plan.superseded = Object.keys(record.failed).filter((key) => !current.has(key) && !isSettled(record, key))
  const told = shopperStepsSent(record)
  const later: number[] = []
  for (const candidate of candidates) {
    if (!options.events.has(candidate.event) || isSettled(record, candidate.delivery_key)) {
      continue
    }
    if (now.getTime() - Date.parse(candidate.at) > STALE_AFTER_MS) {
      plan.stale.push(candidate)
    } else if (candidate.audience === "shopper" && !told.has(candidate.key) && told.size >= MAX_SHOPPER_MESSAGES) {
      plan.capped.push(candidate)
    } else if (candidate.audience === "shopper" && holdShopperUntil && holdShopperUntil > now) {
      later.push(holdShopperUntil.getTime())
    } else if (maySendNow(record, candidate.delivery_key, now)) {
      plan.due.push(candidate)
    } else {
      later.push(Date.parse(record.failed[candidate.delivery_key].next_at ?? ""))
    }
  }
  // A ready collection is looked at again when its next reminder, extension or time up falls due.
  const ready = milestones.find((m) => m.event === "collection_ready")
  const waiting = ready && task.status === "booked" && !milestones.some((m) => m.event === "collection_collected")
  if (waiting && latest?.event !== "closed" && !cancelledInMedusa(task)) {
    const ahead = holdSteps(task, ready, options.reminder)
      .map((s) => Date.parse(s.at))
      .filter((t) => t > now.getTime())
    const record = readCollectionRecord(task.collection)
    const end = record ? Date.parse(currentCollectBy(record) ?? "") : NaN
    later.push(...ahead, ...(end > now.getTime() ? [end] : []))
  }
  const next = later.filter((t) => !Number.isNaN(t))
  plan.next_check_at = next.length ? new Date(Math.min(...next)).toISOString() : null
  return plan
}

/** A task's mode: as its row says, else (rows booked before the row kept it) from its kind and rate. */
export function taskModeOf(row: { mode?: string | null; kind: string; rate_code?: string | null }): TaskMode {
  if (row.mode === "delivery" || row.mode === "collection" || row.mode === "return") {
    return row.mode
  }
  return row.kind === "return" ? "return" : row.rate_code === "SVC_COL" ? "collection" : "delivery"
}
