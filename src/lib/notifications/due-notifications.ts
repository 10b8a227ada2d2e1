/** Which messages a task is due, from its row alone (decisions 45 and 46). */
import type { TaskHistoryEntry } from "../contracts/admin-api"
import type {
  LastmileNotificationEvent,
  MerchantEvent,
  NotificationAudience,
  ShopperEvent,
  TaskMode,
} from "./notification-events"
import { type NotificationRecord, isSettled, maySendNow } from "./notification-record"
import type { ResolvedNotificationOptions } from "./notification-options"
import type { StatusEvents } from "./status-events"

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
}

export interface NotificationPlan {
  /** What to send now, the merchant's after the shopper's. */
  due: DueMessage[]
  /** Steps found too old to tell (the task reached them long before the plugin could send). */
  stale: DueMessage[]
  /** Failed messages the task has moved past (a later step, a booking since made): never retried. */
  superseded: string[]
  /** When the task has something to look at again (a retry, the reminder); null when nothing is pending. */
  next_check_at: string | null
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
 * sync wrote (they name their source). Before the first sync, the status the
 * booking answered with stands in.
 */
function serviceStatuses(task: NotifiableTask, now: Date): { value: string; at: string }[] {
  const read = historyOf(task)
    .filter((e) => typeof e.source === "string")
    .map((e) => ({ value: e.value, at: iso(e.at, now) }))
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
  const push = (event: ShopperEvent, at: string, status: string) => {
    const occurrence = (counts.get(event) ?? 0) + 1
    counts.set(event, occurrence)
    milestones.push({ event, occurrence, at, status })
  }
  let rank = 0
  let afterProblem = false
  for (const { value, at } of serviceStatuses(task, now)) {
    const step = statusEvents.stepOf(value, mode)
    if (step === "cancelled") {
      milestones.push({ event: "closed", occurrence: 1, at, status: value })
      return milestones
    }
    if (step === "done" && rank < done) {
      rank = done
      push(DONE[mode], at, value)
    } else if (step === "out_for_delivery" && (rank < 1 || (rank === 1 && afterProblem))) {
      // Out again after a failed attempt is a new step; a late "out for delivery" is none.
      rank = 1
      afterProblem = false
      push("delivery_out_for_delivery", at, value)
    } else if (step === "problem" && rank < done) {
      afterProblem = true
      push("delivery_problem", at, value)
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
  status: string | null
): DueMessage {
  return { key: keyOf(event, occurrence), event, audience, at, status }
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

/** What to send now, what is too old to send, and when to look again. */
export function planNotifications(
  task: NotifiableTask,
  record: NotificationRecord,
  options: Pick<ResolvedNotificationOptions, "enabled" | "events" | "reminderAfterMs" | "statusEvents">,
  now: Date
): NotificationPlan {
  const plan: NotificationPlan = { due: [], stale: [], superseded: [], next_check_at: null }
  if (!options.enabled) {
    return plan
  }
  const milestones = shopperMilestones(task, options.statusEvents, options.reminderAfterMs, now)
  const latest = milestones[milestones.length - 1]
  const candidates: DueMessage[] = []
  if (latest && latest.event !== "closed") {
    candidates.push(message(latest.event, "shopper", latest.occurrence, latest.at, latest.status))
  }
  candidates.push(...merchantMessages(task, latest, now))

  const current = new Set(candidates.map((c) => c.key))
  plan.superseded = Object.keys(record.failed).filter((key) => !current.has(key) && !isSettled(record, key))
  const later: number[] = []
  for (const candidate of candidates) {
    if (!options.events.has(candidate.event) || isSettled(record, candidate.key)) {
      continue
    }
    if (now.getTime() - Date.parse(candidate.at) > STALE_AFTER_MS) {
      plan.stale.push(candidate)
    } else if (maySendNow(record, candidate.key, now)) {
      plan.due.push(candidate)
    } else {
      later.push(Date.parse(record.failed[candidate.key].next_at ?? ""))
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
