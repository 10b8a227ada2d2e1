/**
 * The decisions of a tracking sync without Medusa: what a status means for the task (forward-only), what Medusa still
 * has to be told, what the row becomes, the event and the outcome kept; syncTaskStatusWorkflow does the I/O.
 */
import { type StatusTable, type TrackingPhase, type TrackingState, nextTrackingState } from "./status-table"
import { withStatusEntry } from "./task-history"
import type { FulfillmentLabel } from "../contracts/plugin-data"

export const TASK_STATUS_CHANGED_EVENT = "lastmile.task.status_changed"

/** The lock of a task's tracking, shared by every run that syncs it or sends its messages. */
export const taskTrackingLockKey = (taskRowId: string): string => `lastmile:tracking:${taskRowId}`

export type SyncSource = "webhook" | "poll" | "admin"

export interface SyncOutcome {
  /** What happened, in words kept on the webhook event and shown in admin. */
  outcome: string
  changed: boolean
  status?: string
  trackingState?: TrackingState
  /** False when the state could not be read or applied; the polling job tries again. */
  ok: boolean
}

/** The task row's fields a sync reads. */
export interface TrackedTask {
  id: string
  kind: "delivery" | "return"
  status: string
  order_id: string
  return_id: string | null
  fulfillment_id: string | null
  merchant_order_id: string
  task_id: string | null
  tracking_id: string | null
  service_status: string | null
  tracking_state: TrackingState
  unmapped_status: string | null
  /** How the parcel reaches the shopper: a collection's ready parcel waits at the store, never "shipped" in Medusa. */
  mode?: "delivery" | "collection" | "return" | null
}

/** A task row as the sync carries it (step data is kept with the run: only what the sync reads). */
export function trackedTaskOf(row: TrackedTask): TrackedTask {
  const { id, kind, status, order_id, return_id, fulfillment_id, merchant_order_id, task_id, tracking_id } = row
  const { service_status, tracking_state, unmapped_status, mode } = row
  return {
    ...{ id, kind, status, order_id, return_id, fulfillment_id, merchant_order_id, task_id, tracking_id },
    ...{ service_status, tracking_state, unmapped_status, mode: mode ?? null },
  }
}

/** What one read of the service found, as the rest of the sync needs it. */
export type TaskStatusReading =
  /** Nothing to record on the task: not booked, no connection, or the read failed. */
  | { kind: "stopped"; outcome: string; ok: boolean }
  /** The lookup answered without a status: only the read time is recorded. */
  | { kind: "no_status"; task_row_id: string; checked_at: string; outcome: string }
  | {
      kind: "status"
      task: TrackedTask
      value: string
      phase: TrackingPhase | null
      tracking_state: TrackingState
      /** The service's value differs from the one recorded. */
      changed: boolean
      checked_at: string
      /** A delivery window the service gave with the task (not in the spec; kept when a service adds one). */
      window?: { from: string; to: string }
      /** A collection first read ready: when, and until when the store holds it (decision 65). */
      collection_ready?: { ready_at: string; collect_by: string }
    }

export function statusReading(
  task: TrackedTask,
  value: string,
  table: StatusTable,
  checkedAt: Date
): Extract<TaskStatusReading, { kind: "status" }> {
  const phase = table.phaseOf(value)
  return {
    kind: "status",
    task,
    value,
    phase,
    tracking_state: nextTrackingState(task.tracking_state, phase),
    changed: value !== task.service_status,
    checked_at: checkedAt.toISOString(),
  }
}

/** Whether the tracking state moved, so Medusa may have something to catch up on. */
export function trackingStateMoved(reading: TaskStatusReading): boolean {
  return reading.kind === "status" && reading.tracking_state !== reading.task.tracking_state
}

export interface FulfillmentProgress {
  id: string
  shipped_at: string | Date | null
  delivered_at: string | Date | null
  canceled_at: string | Date | null
  labels: FulfillmentLabel[]
  items: { line_item_id?: string | null; quantity: number | string }[]
}

export interface ReturnProgress {
  status: string
  /** The return's lastmile fulfillment. */
  fulfillment?: { id: string; canceled_at?: string | Date | null; shipped_at?: string | Date | null } | null
  items: ({ item_id: string; quantity: number | string; received_quantity?: number | string | null } | null)[]
}

/** What a sync reads of Medusa's fulfillment (for a delivery whose state moved past awaiting). */
export const FULFILLMENT_PROGRESS_FIELDS = [
  "id",
  "shipped_at",
  "delivered_at",
  "canceled_at",
  "labels.tracking_number",
  "labels.tracking_url",
  "labels.label_url",
  "items.line_item_id",
  "items.quantity",
]

/** What a sync reads of Medusa's return (for a return cancelled or delivered at the service). */
export const RETURN_PROGRESS_FIELDS = [
  "id",
  "status",
  "items.item_id",
  "items.quantity",
  "items.received_quantity",
  "fulfillments.id",
  "fulfillments.canceled_at",
  "fulfillments.shipped_at",
]

/**
 * What of Medusa a reading calls for before the updates are planned: nothing when the tracking state did not move
 * (it was applied when it was recorded), else the delivery's fulfillment or the return, when Medusa may have to be told
 * (a return delivered is read once, when it moves there, whether or not the merchant has returns marked received).
 */
export function progressToRead(reading: TaskStatusReading): {
  fulfillment_id: string | null
  return_id: string | null
} {
  if (reading.kind !== "status" || !trackingStateMoved(reading)) {
    return { fulfillment_id: null, return_id: null }
  }
  const { task, tracking_state: state } = reading
  if (task.kind === "delivery") {
    return { fulfillment_id: state === "awaiting" ? null : task.fulfillment_id, return_id: null }
  }
  return { fulfillment_id: null, return_id: state === "cancelled" || state === "delivered" ? task.return_id : null }
}

/** A return as read, with the task's own fulfillment of it. */
export function returnProgressOf(
  row: { status: string; items?: ReturnProgress["items"] | null; fulfillments?: ({ id?: string } | null)[] | null },
  fulfillmentId: string | null
): ReturnProgress {
  const fulfillment = (row.fulfillments ?? []).find((f) => !!f && f.id === fulfillmentId)
  return {
    status: row.status,
    items: row.items ?? [],
    fulfillment: (fulfillment as ReturnProgress["fulfillment"]) ?? null,
  }
}

/** What Medusa is told in this run; each part absent when it already knows. */
export interface TrackingUpdates {
  shipment?: {
    order_id: string
    fulfillment_id: string
    items: { id: string; quantity: number }[]
    labels: FulfillmentLabel[]
    /** The plugin tells the shopper itself: a shop's own "shipped" message would double it (decision 60). */
    no_notification?: boolean
  }
  delivery?: { orderId: string; fulfillmentId: string; no_notification?: boolean }
  return_receipt?: { return_id: string; items: { id: string; quantity: number }[] }
  /**
   * The service cancelled the task: Medusa's fulfillment is cancelled too
   * (an order's through the order's own flow, so the merchant's order cancel
   * then succeeds; a return's through the fulfillment's).
   */
  cancellation?: { kind: "delivery" | "return"; order_id: string; fulfillment_id: string }
  /** Words for the outcome, in the order the updates are made. */
  applied: string[]
}

export const NO_UPDATES: TrackingUpdates = { applied: [] }

/**
 * A delivery's fulfillment is marked shipped once (its labels re-sent: without
 * them Medusa deletes the existing ones, and with them the tracking link), then
 * delivered once, as its own shipped_at and delivered_at say. A collection is
 * never marked shipped: Medusa's pickup goes from awaiting straight to picked
 * up, and a parcel ready at the store can still be cancelled back into stock
 * when nobody collects it (decision 65).
 */
export function fulfillmentUpdates(
  task: TrackedTask,
  state: TrackingState,
  fulfillment: FulfillmentProgress | null | undefined
): TrackingUpdates {
  if (!task.fulfillment_id || state === "awaiting") {
    return NO_UPDATES
  }
  if (!fulfillment || fulfillment.canceled_at) {
    return { applied: ["(the fulfillment is gone or canceled; Medusa left as is)"] }
  }
  if (state === "cancelled") {
    return fulfillment.shipped_at
      ? { applied: ["(the fulfillment is shipped: Medusa cannot cancel it; left as is)"] }
      : {
          cancellation: { kind: "delivery", order_id: task.order_id, fulfillment_id: fulfillment.id },
          applied: ["fulfillment cancelled in Medusa"],
        }
  }
  const updates: TrackingUpdates = { applied: [] }
  if (!fulfillment.shipped_at && task.mode !== "collection") {
    updates.shipment = {
      order_id: task.order_id,
      fulfillment_id: fulfillment.id,
      items: fulfillment.items.flatMap((i) =>
        i.line_item_id ? [{ id: i.line_item_id, quantity: Number(i.quantity) }] : []
      ),
      labels: fulfillment.labels.map((l) => ({
        tracking_number: l.tracking_number,
        tracking_url: l.tracking_url,
        label_url: l.label_url,
      })),
    }
    updates.applied.push("fulfillment marked shipped")
  }
  if (state === "delivered" && !fulfillment.delivered_at) {
    updates.delivery = { orderId: task.order_id, fulfillmentId: fulfillment.id }
    updates.applied.push("fulfillment marked delivered")
  }
  return updates
}

/** What Medusa is told of a reading, from what it knows already (`progressToRead`'s reads). */
export function trackingUpdatesOf(
  reading: TaskStatusReading,
  markReturnsReceived: boolean,
  known: { fulfillment?: FulfillmentProgress | null; orderReturn?: ReturnProgress | null },
  /** The plugin's own messages tell the shopper: Medusa's shipment and delivery carry `no_notification`. */
  quietMedusa = false
): TrackingUpdates {
  if (reading.kind !== "status" || !trackingStateMoved(reading)) {
    return NO_UPDATES
  }
  const { task, tracking_state: state } = reading
  if (task.kind !== "delivery") {
    return returnUpdates(task, state, markReturnsReceived, known.orderReturn)
  }
  const updates = fulfillmentUpdates(task, state, known.fulfillment)
  return quietMedusa
    ? {
        ...updates,
        ...(updates.shipment ? { shipment: { ...updates.shipment, no_notification: true } } : {}),
        ...(updates.delivery ? { delivery: { ...updates.delivery, no_notification: true } } : {}),
      }
    : updates
}

/** A delivered return task receives what is still outstanding of the return, when the merchant asked for it. */
export function returnUpdates(
  task: TrackedTask,
  state: TrackingState,
  markReceived: boolean,
  orderReturn: ReturnProgress | null | undefined
): TrackingUpdates {
  if (state === "cancelled") {
    const fulfillment = orderReturn?.fulfillment
    if (!fulfillment || fulfillment.canceled_at || fulfillment.shipped_at) {
      return NO_UPDATES
    }
    return {
      cancellation: { kind: "return", order_id: task.order_id, fulfillment_id: fulfillment.id },
      applied: ["return fulfillment cancelled in Medusa"],
    }
  }
  if (state !== "delivered" || !markReceived || !task.return_id) {
    return NO_UPDATES
  }
  if (!orderReturn || orderReturn.status === "received" || orderReturn.status === "canceled") {
    return NO_UPDATES
  }
  const items = orderReturn.items
    .flatMap((i) => (i ? [i] : []))
    .map((i) => ({ id: i.item_id, quantity: Number(i.quantity) - Number(i.received_quantity ?? 0) }))
    .filter((i) => i.quantity > 0)
  if (!items.length) {
    return NO_UPDATES
  }
  return { return_receipt: { return_id: task.return_id, items }, applied: ["return marked received"] }
}

/** The task row's new fields. The service's value is recorded as is; the tracking state never moves backwards. */
export function taskStatusFields(
  reading: Extract<TaskStatusReading, { kind: "status" }>,
  history: { entries?: unknown[] } | null | undefined,
  source: SyncSource
) {
  const at = new Date(reading.checked_at)
  return {
    last_checked_at: at,
    tracking_state: reading.tracking_state,
    ...(reading.changed
      ? {
          service_status: reading.value,
          status_history: withStatusEntry(history, {
            value: reading.value,
            at,
            source,
            phase: reading.phase ?? "unknown",
            ...(reading.window ? { window: reading.window } : {}),
          }),
          unmapped_status: reading.phase === null ? reading.value : reading.task.unmapped_status,
        }
      : {}),
  }
}

export interface StatusChangedPayload {
  id: string
  kind: "delivery" | "return"
  order_id: string
  return_id: string | null
  fulfillment_id: string | null
  task_id: string | null
  tracking_id: string | null
  previous_status: string | null
  status: string
  phase: TrackingPhase | "unknown"
  previous_tracking_state: TrackingState
  tracking_state: TrackingState
  source: SyncSource
}

export function statusChangedPayload(
  reading: Extract<TaskStatusReading, { kind: "status" }>,
  source: SyncSource
): StatusChangedPayload {
  const { task } = reading
  return {
    id: task.id,
    kind: task.kind,
    order_id: task.order_id,
    return_id: task.return_id,
    fulfillment_id: task.fulfillment_id,
    task_id: task.task_id,
    tracking_id: task.tracking_id,
    previous_status: task.service_status,
    status: reading.value,
    phase: reading.phase ?? "unknown",
    previous_tracking_state: task.tracking_state,
    tracking_state: reading.tracking_state,
    source,
  }
}

export function syncOutcome(reading: TaskStatusReading, applied: string[]): SyncOutcome {
  if (reading.kind === "stopped") {
    return { outcome: reading.outcome, changed: false, ok: reading.ok }
  }
  if (reading.kind === "no_status") {
    return { outcome: reading.outcome, changed: false, ok: true }
  }
  const words = [
    reading.changed ? `${reading.task.service_status ?? "(none)"} → ${reading.value}` : `still ${reading.value}`,
    reading.phase === null ? "(unknown status, recorded)" : `(${reading.phase})`,
    ...applied,
  ]
  return {
    outcome: words.join(" "),
    changed: reading.changed,
    status: reading.value,
    trackingState: reading.tracking_state,
    ok: true,
  }
}

/** The outcome of a run that could not read or apply the state. */
export function notUpdated(message: string): SyncOutcome {
  return { outcome: `not updated: ${message}`, changed: false, ok: false }
}
