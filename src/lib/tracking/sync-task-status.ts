/**
 * Brings one task's Medusa side up to the service's state. Whatever rang
 * (a webhook, the polling job, the merchant's "refresh" button), the state is
 * re-read from the service's lookup, never taken from a webhook body, and
 * applied forward-only: the status history grows, the fulfillment is marked
 * shipped (its labels re-sent, so the tracking stays) and delivered exactly
 * once, and `lastmile.task.status_changed` is emitted for merchants'
 * notification subscribers.
 *
 * Runs under a per-task lock, so concurrent doorbells for one task queue up;
 * each webhook event still waiting when a run starts is answered by that run,
 * and requestTaskSync coalesces bursts, so ten identical webhooks cost one or
 * two lookups, not ten.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createOrderShipmentWorkflow,
  markOrderFulfillmentAsDeliveredWorkflow,
  receiveAndCompleteReturnOrderWorkflow,
} from "@medusajs/medusa/core-flows"
import { pickTask } from "../service-client"
import { lastmileClient } from "../connection/lastmile-connection"
import { errorMessage } from "../lastmile/error-message"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { nextTrackingState, type TrackingPhase, type TrackingState } from "../lastmile/status-table"
import { withHistoryEntry } from "../lastmile/task-history"

export const TASK_STATUS_CHANGED_EVENT = "lastmile.task.status_changed"

export type SyncSource = "webhook" | "poll" | "admin"

export interface TrackedTaskRow {
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
  status_history: { entries?: unknown[] } | null
}

export interface SyncOutcome {
  /** What happened, in words kept on the webhook event and shown in admin. */
  outcome: string
  changed: boolean
  status?: string
  trackingState?: TrackingState
  /** False when the state could not be read or applied; the polling job tries again. */
  ok: boolean
}

interface StatusChangedPayload {
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

export async function syncTaskStatus(
  container: MedusaContainer,
  taskRowId: string,
  { source }: { source: SyncSource }
): Promise<SyncOutcome> {
  const locking = container.resolve(Modules.LOCKING)
  return locking.execute(`lastmile:tracking:${taskRowId}`, () => syncLocked(container, taskRowId, source), {
    timeout: 30,
  })
}

interface Flight {
  running: Promise<SyncOutcome>
  queued?: Promise<SyncOutcome>
}
const flights = new Map<string, Flight>()

/**
 * Syncs a task, coalescing requests within this process: while a sync of the
 * task runs, at most one more is queued and every later request joins it. The
 * queued run starts after the running one, so it reads any change the running
 * one may have missed. (The lock in syncTaskStatus covers other instances.)
 */
export function requestTaskSync(
  container: MedusaContainer,
  taskRowId: string,
  source: SyncSource
): Promise<SyncOutcome> {
  const flight = flights.get(taskRowId)
  const run = () => syncTaskStatus(container, taskRowId, { source })
  if (!flight) {
    const running = run().finally(() => {
      const current = flights.get(taskRowId)
      if (current?.queued) {
        flights.set(taskRowId, { running: current.queued })
      } else {
        flights.delete(taskRowId)
      }
    })
    flights.set(taskRowId, { running })
    return running
  }
  if (!flight.queued) {
    const queued = flight.running
      .catch(() => undefined)
      .then(run)
      .finally(() => {
        if (flights.get(taskRowId)?.running === queued) {
          flights.delete(taskRowId)
        }
      })
    flight.queued = queued
  }
  return flight.queued
}

async function syncLocked(container: MedusaContainer, taskRowId: string, source: SyncSource): Promise<SyncOutcome> {
  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const waiting = (await module.listLastmileWebhookEvents(
    { lastmile_task_id: taskRowId, status: "received" },
    { select: ["id"] }
  )) as { id: string }[]

  let result: SyncOutcome
  try {
    result = await readAndApply(container, module, taskRowId, source)
  } catch (error) {
    const message = errorMessage(error)
    logger.warn(`lastmile: tracking ${taskRowId} not updated (${source}): ${message}`)
    result = { outcome: `not updated: ${message}`, changed: false, ok: false }
  }
  if (waiting.length) {
    await module.updateLastmileWebhookEvents(
      waiting.map((e) => ({
        id: e.id,
        status: result.ok ? ("processed" as const) : ("failed" as const),
        outcome: result.outcome,
        processed_at: new Date(),
      }))
    )
  }
  return result
}

async function readAndApply(
  container: MedusaContainer,
  module: LastmileModuleService,
  taskRowId: string,
  source: SyncSource
): Promise<SyncOutcome> {
  const task = (await module.retrieveLastmileTask(taskRowId)) as unknown as TrackedTaskRow
  if (task.status !== "booked" || !task.task_id) {
    return { outcome: `task is ${task.status}, not booked yet: nothing to track`, changed: false, ok: true }
  }
  const connection = lastmileClient(container)
  if (!connection) {
    return { outcome: "the lastmile provider is not configured", changed: false, ok: false }
  }
  const remote = pickTask(
    (await connection.client.findDeliveries(task.merchant_order_id)).filter((t) => String(t.taskId) === task.task_id),
    task.kind === "delivery" ? "DELIVERY" : "RETURN"
  )
  const now = new Date()
  if (!remote?.status?.value) {
    await module.updateLastmileTasks({ id: task.id, last_checked_at: now })
    return { outcome: `the service's lookup shows no status for task ${task.task_id}`, changed: false, ok: true }
  }

  const value = remote.status.value
  const { statusTable, markReturnsReceived } = module.getPluginOptions()
  const phase = statusTable.phaseOf(value)
  const trackingState = nextTrackingState(task.tracking_state, phase)
  const changed = value !== task.service_status

  // Medusa first: if it fails, the row keeps its old state and the next read applies it again.
  // An unchanged state was applied when it was recorded, so Medusa is not read again.
  const applied =
    trackingState === task.tracking_state
      ? []
      : task.kind === "delivery"
        ? await applyToFulfillment(container, task, trackingState)
        : await applyToReturn(container, task, trackingState, markReturnsReceived)

  await module.updateLastmileTasks({
    id: task.id,
    last_checked_at: now,
    tracking_state: trackingState,
    ...(changed
      ? {
          // What the service says now; the tracking state above never moves backwards.
          service_status: value,
          status_history: withHistoryEntry(task.status_history, { value, at: now, source, phase: phase ?? "unknown" }),
          unmapped_status: phase === null ? value : task.unmapped_status,
        }
      : {}),
  })

  if (changed) {
    const payload: StatusChangedPayload = {
      id: task.id,
      kind: task.kind,
      order_id: task.order_id,
      return_id: task.return_id,
      fulfillment_id: task.fulfillment_id,
      task_id: task.task_id,
      tracking_id: task.tracking_id,
      previous_status: task.service_status,
      status: value,
      phase: phase ?? "unknown",
      previous_tracking_state: task.tracking_state,
      tracking_state: trackingState,
      source,
    }
    await container.resolve(Modules.EVENT_BUS).emit({ name: TASK_STATUS_CHANGED_EVENT, data: payload })
  }
  if (phase === null && changed) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(
        `lastmile: task ${task.task_id} has status ${JSON.stringify(value)}, which the status table does not know; ` +
          `recorded as is. Map it with the plugin option status_map.`
      )
  }
  const words = [
    changed ? `${task.service_status ?? "(none)"} → ${value}` : `still ${value}`,
    phase === null ? "(unknown status, recorded)" : `(${phase})`,
    ...applied,
  ]
  return { outcome: words.join(" "), changed, status: value, trackingState, ok: true }
}

interface FulfillmentRow {
  id: string
  shipped_at: string | null
  delivered_at: string | null
  canceled_at: string | null
  labels: { tracking_number: string; tracking_url: string; label_url: string }[]
  items: { line_item_id: string; quantity: number }[]
}

async function applyToFulfillment(
  container: MedusaContainer,
  task: TrackedTaskRow,
  state: TrackingState
): Promise<string[]> {
  if (!task.fulfillment_id || (state !== "shipped" && state !== "delivered")) {
    return []
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "fulfillment",
    fields: [
      "id",
      "shipped_at",
      "delivered_at",
      "canceled_at",
      "labels.tracking_number",
      "labels.tracking_url",
      "labels.label_url",
      "items.line_item_id",
      "items.quantity",
    ],
    filters: { id: task.fulfillment_id },
  })
  const fulfillment = data[0] as FulfillmentRow | undefined
  if (!fulfillment || fulfillment.canceled_at) {
    return ["(the fulfillment is gone or canceled; Medusa left as is)"]
  }
  const done: string[] = []
  if (!fulfillment.shipped_at) {
    await runUnlessAlready(
      () =>
        createOrderShipmentWorkflow(container).run({
          input: {
            order_id: task.order_id,
            fulfillment_id: fulfillment.id,
            items: fulfillment.items.map((i) => ({ id: i.line_item_id, quantity: Number(i.quantity) })),
            // Without labels the workflow deletes the existing ones, and with them the tracking link.
            labels: fulfillment.labels.map((l) => ({
              tracking_number: l.tracking_number,
              tracking_url: l.tracking_url,
              label_url: l.label_url,
            })),
          },
        }),
      "already been created"
    )
    done.push("fulfillment marked shipped")
  }
  if (state === "delivered" && !fulfillment.delivered_at) {
    await runUnlessAlready(
      () =>
        markOrderFulfillmentAsDeliveredWorkflow(container).run({
          input: { orderId: task.order_id, fulfillmentId: fulfillment.id },
        }),
      "already been marked delivered"
    )
    done.push("fulfillment marked delivered")
  }
  return done
}

async function applyToReturn(
  container: MedusaContainer,
  task: TrackedTaskRow,
  state: TrackingState,
  markReceived: boolean
): Promise<string[]> {
  if (state !== "delivered" || !markReceived || !task.return_id) {
    return []
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "return",
    fields: ["id", "status", "items.item_id", "items.quantity", "items.received_quantity"],
    filters: { id: task.return_id },
  })
  const orderReturn = data[0] as
    { status: string; items: { item_id: string; quantity: number; received_quantity: number | null }[] } | undefined
  if (!orderReturn || orderReturn.status === "received" || orderReturn.status === "canceled") {
    return []
  }
  const items = orderReturn.items
    .map((i) => ({ id: i.item_id, quantity: Number(i.quantity) - Number(i.received_quantity ?? 0) }))
    .filter((i) => i.quantity > 0)
  if (!items.length) {
    return []
  }
  await receiveAndCompleteReturnOrderWorkflow(container).run({ input: { return_id: task.return_id, items } })
  return ["return marked received"]
}

/** Another run got there first: the state is already what this one wanted. */
async function runUnlessAlready(run: () => Promise<unknown>, alreadyMarker: string): Promise<void> {
  try {
    await run()
  } catch (error) {
    if (!errorMessage(error).includes(alreadyMarker)) {
      throw error
    }
  }
}
