/**
 * Brings one task's Medusa side up to the service's state, whatever rang (decision 14): re-read from the lookup,
 * applied forward-only under the task's lock, the webhook events waiting answered, messages sent last (decision 45).
 */
import {
  acquireLockStep,
  createOrderShipmentWorkflow,
  emitEventStep,
  markOrderFulfillmentAsDeliveredWorkflow,
  receiveAndCompleteReturnOrderWorkflow,
  releaseLockStep,
  useQueryGraphStep,
} from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import {
  FULFILLMENT_PROGRESS_FIELDS,
  RETURN_PROGRESS_FIELDS,
  type SyncOutcome,
  type SyncSource,
  TASK_STATUS_CHANGED_EVENT,
  type TaskStatusReading,
  type TrackingUpdates,
  progressToRead,
  statusChangedPayload,
  syncOutcome,
  taskTrackingLockKey,
} from "../../lib/tracking/task-sync"
import { listWaitingWebhookEventsStep } from "./steps/list-waiting-webhook-events"
import { readTaskStatusStep } from "./steps/read-task-status"
import { planTrackingUpdatesStep } from "./steps/plan-tracking-updates"
import { recordTaskStatusStep } from "./steps/record-task-status"
import { settleWebhookEventsStep } from "./steps/settle-webhook-events"
import { cancelLastmileFulfillmentWorkflow } from "../cancel-lastmile-fulfillment"
import { sendTaskNotificationsStep } from "../notify-task/steps/send-task-notifications"

export {
  type StatusChangedPayload,
  type SyncOutcome,
  type SyncSource,
  TASK_STATUS_CHANGED_EVENT,
} from "../../lib/tracking/task-sync"

export interface SyncTaskStatusWorkflowInput {
  /** The lastmile_task row's id. */
  task_row_id: string
  /** What rang: recorded on the history entry and the event. */
  source: SyncSource
}

export type SyncTaskStatusWorkflowOutput = SyncOutcome

export const syncTaskStatusWorkflowId = "lastmile-sync-task-status"

export { taskTrackingLockKey }

/** One part of the plan, for a core workflow that runs only when the part is there. */
function part<K extends "shipment" | "delivery" | "return_receipt" | "cancellation">(
  updates: TrackingUpdates,
  key: K
): NonNullable<TrackingUpdates[K]> {
  const value = updates[key]
  if (!value) {
    // The `when` around the core workflow checked it: reaching here is a bug.
    throw new Error(`lastmile: tracking update ${key} is missing`)
  }
  return value
}

function statusRead(reading: TaskStatusReading): Extract<TaskStatusReading, { kind: "status" }> {
  if (reading.kind !== "status") {
    throw new Error("lastmile: no status was read")
  }
  return reading
}

export const syncTaskStatusWorkflow = createWorkflow(syncTaskStatusWorkflowId, (input: SyncTaskStatusWorkflowInput) => {
  const key = transform({ input }, ({ input }) => taskTrackingLockKey(input.task_row_id))
  // Also when nested in another workflow: the task's lock is what keeps two runs from applying one state twice.
  acquireLockStep({ key, timeout: 30, ttl: 120, executeOnSubWorkflow: true })
  // Concurrent doorbells queue on the lock; each webhook event waiting now is answered by this run.
  const waiting = listWaitingWebhookEventsStep({ task_row_id: input.task_row_id })
  const reading = readTaskStatusStep({ task_row_id: input.task_row_id, source: input.source })
  // What Medusa knows of the parcel already, read only when the state moved (one transform per value).
  const fulfillmentId = transform({ reading }, ({ reading }) => progressToRead(reading).fulfillment_id)
  const returnId = transform({ reading }, ({ reading }) => progressToRead(reading).return_id)
  const fulfillment = when(
    "lastmile-sync-when-fulfillment-read",
    { fulfillmentId },
    ({ fulfillmentId }) => !!fulfillmentId
  ).then(() =>
    useQueryGraphStep({
      entity: "fulfillment",
      fields: FULFILLMENT_PROGRESS_FIELDS,
      filters: { id: fulfillmentId },
    }).config({
      name: "lastmile-sync-read-fulfillment",
    })
  )
  const orderReturn = when("lastmile-sync-when-return-read", { returnId }, ({ returnId }) => !!returnId).then(() =>
    useQueryGraphStep({ entity: "return", fields: RETURN_PROGRESS_FIELDS, filters: { id: returnId } }).config({
      name: "lastmile-sync-read-return",
    })
  )
  const updates = planTrackingUpdatesStep(
    transform({ reading, fulfillment, orderReturn }, ({ reading, fulfillment, orderReturn }) => ({
      reading,
      fulfillment: fulfillment?.data[0] ?? null,
      order_return: orderReturn?.data[0] ?? null,
    }))
  )

  // Each once, as the fulfillment's own shipped_at and delivered_at say (a shipment re-sends its labels, so the
  // tracking stays); a delivered return is received when the merchant asked for it.
  // Medusa first: if it refuses, the run is undone and the row keeps its old state for the next read.
  when("lastmile-sync-when-shipment-needed", { updates }, ({ updates }) => !!updates.shipment).then(() => {
    const shipment = transform({ updates }, ({ updates }) => part(updates, "shipment"))
    createOrderShipmentWorkflow.runAsStep({ input: shipment })
  })
  when("lastmile-sync-when-delivery-needed", { updates }, ({ updates }) => !!updates.delivery).then(() => {
    const delivery = transform({ updates }, ({ updates }) => part(updates, "delivery"))
    markOrderFulfillmentAsDeliveredWorkflow.runAsStep({ input: delivery })
  })
  when("lastmile-sync-when-return-receipt-needed", { updates }, ({ updates }) => !!updates.return_receipt).then(() => {
    const receipt = transform({ updates }, ({ updates }) => part(updates, "return_receipt"))
    receiveAndCompleteReturnOrderWorkflow.runAsStep({ input: receipt })
  })
  when("lastmile-sync-when-cancellation-needed", { updates }, ({ updates }) => !!updates.cancellation).then(() => {
    const cancellation = transform({ updates, reading }, ({ updates, reading }) => {
      const { kind, order_id, fulfillment_id } = part(updates, "cancellation")
      return {
        kind,
        order_id,
        fulfillment_id,
        task_row_id: statusRead(reading).task.id,
        by: "service" as const,
        service_status: statusRead(reading).value,
      }
    })
    cancelLastmileFulfillmentWorkflow.runAsStep({ input: cancellation })
  })

  recordTaskStatusStep({ reading, source: input.source })

  when(
    "lastmile-sync-when-status-changed",
    { reading },
    ({ reading }) => reading.kind === "status" && reading.changed
  ).then(() => {
    const data = transform({ reading, input }, ({ reading, input }) =>
      statusChangedPayload(statusRead(reading), input.source)
    )
    // For merchants' own notification subscribers.
    emitEventStep({ eventName: TASK_STATUS_CHANGED_EVENT, data })
  })

  // The messages the task's state now calls for, under the same lock; a failed send never fails the sync.
  sendTaskNotificationsStep({ task_row_id: input.task_row_id, lock_held: true })

  const outcome = transform({ reading, updates }, ({ reading, updates }) => syncOutcome(reading, updates.applied))
  settleWebhookEventsStep({ event_ids: waiting, outcome })
  releaseLockStep({ key, executeOnSubWorkflow: true })
  return new WorkflowResponse(outcome)
})
