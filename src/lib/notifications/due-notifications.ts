/** Which messages a task is due, from its row alone (decisions 45 and 46). */
import type { TaskHistoryEntry } from "../contracts/admin-api"
import {
  type LastmileNotificationEvent,
  type MerchantEvent,
  type NotificationAudience,
  type ShopperEvent,
  type TaskMode,
  audienceOf,
} from "./notification-events"
import { type NotificationRecord, isSettled, maySendNow } from "./notification-record"
import type { ResolvedNotificationOptions } from "./notification-options"
import { type StatusEvents, problemKindOf } from "./status-events"

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
}

const RANKS: Record<TaskMode, Partial<Record<ShopperEvent, number>>> = {
  delivery: { delivery_booked: 0, delivery_out_for_delivery: 1, delivery_delivered: 2 },
  collection: { collection_booked: 0, collection_ready: 1, collection_reminder: 2, collection_collected: 3 },
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
  reminderAfterMs: number | null,
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
  if (mode === "collection" && latest.event === "collection_ready" && reminderAfterMs !== null) {
    const remindAt = Date.parse(latest.at) + reminderAfterMs
    if (now.getTime() >= remindAt) {
      milestones.push({
        event: "collection_reminder",
        occurrence: 1,
        at: new Date(remindAt).toISOString(),
        status: latest.status,
      })
    }
  }
  return milestones
}

/** A step the shopper's tracking page names: one between booked and done. */
export type ShopperStep = "out_for_delivery" | "problem" | "ready_for_collection"

const STEP_OF: Partial<Record<Milestone["event"], ShopperStep>> = {
  delivery_out_for_delivery: "out_for_delivery",
  delivery_problem: "problem",
  collection_ready: "ready_for_collection",
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
function merchantMessages(task: NotifiableTask, latest: Milestone | undefined, now: Date): DueMessage[] {
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
  if (latest?.event === "collection_reminder") {
    merchant("merchant_not_collected", 1, latest.at, latest.status)
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
  | "enabled"
  | "events"
  | "reminderAfterMs"
  | "statusEvents"
  | "channel"
  | "merchantChannel"
  | "smsChannel"
  | "merchantTo"
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
  const milestones = shopperMilestones(task, options.statusEvents, options.reminderAfterMs, now)
  const latest = milestones[milestones.length - 1]
  const steps: DueMessage[] = []
  if (latest && latest.event !== "closed") {
    steps.push(message(latest.event, "shopper", latest.occurrence, latest.at, latest.status, latest.after_problem_at))
  }
  steps.push(...merchantMessages(task, latest, now))
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
  // A ready collection is looked at again when its reminder falls due.
  if (latest?.event === "collection_ready" && options.reminderAfterMs !== null) {
    const wanted = options.events.has("collection_reminder") || options.events.has("merchant_not_collected")
    if (wanted) {
      later.push(Date.parse(latest.at) + options.reminderAfterMs)
    }
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
