/**
 * Hands a collection over at the counter (decision 65): under the task's tracking lock, the code checked (or the
 * override taken), Medusa's fulfillment marked delivered (picked up), the row recorded, and the shopper told once.
 */
import {
  acquireLockStep,
  emitEventStep,
  markOrderFulfillmentAsDeliveredWorkflow,
  releaseLockStep,
  useQueryGraphStep,
} from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import { TASK_STATUS_CHANGED_EVENT, taskTrackingLockKey } from "../../lib/tracking/task-sync"
import type { HandOverAsk } from "../../lib/collection/collection-hold"
import type { HandOverDecision } from "../../lib/collection/hand-over"
import { checkHandOverStep } from "./steps/check-hand-over"
import { recordHandOverStep } from "./steps/record-hand-over"
import { sendTaskNotificationsStep } from "../notify-task/steps/send-task-notifications"

export interface HandOverCollectionWorkflowInput {
  task_row_id: string
  ask: HandOverAsk
  /** The admin user who hands it over, and how the history names them (their email). */
  actor: { id: string | null; name: string | null }
  hold_days: number
  /** Medusa's own "Mark as picked up" said not to tell the shopper (its `delivery.created` event's switch). */
  no_notification?: boolean
  /** Seconds to wait for the task's lock: an admin's click waits 10; a catch-up in the background waits out a sync. */
  lock_timeout?: number
  now?: string
}

export const handOverCollectionWorkflowId = "lastmile-hand-over-collection"

function accepted(decision: HandOverDecision): Extract<HandOverDecision, { ok: true }> {
  if (!decision.ok) {
    // Only reached under a `when` that checked it.
    throw new Error("lastmile: the hand-over was not accepted")
  }
  return decision
}

export const handOverCollectionWorkflow = createWorkflow(
  handOverCollectionWorkflowId,
  (input: HandOverCollectionWorkflowInput) => {
    const key = transform({ input }, ({ input }) => taskTrackingLockKey(input.task_row_id))
    const timeout = transform({ input }, ({ input }) => input.lock_timeout ?? 10)
    acquireLockStep({ key, timeout, ttl: 60 })
    const decision = checkHandOverStep({
      task_row_id: input.task_row_id,
      ask: input.ask,
      now: input.now,
      hold_days: input.hold_days,
    })
    // Medusa's own steps run under top-level `when`s (the SDK composes no `when` inside another).
    const fulfillmentId = transform({ decision }, ({ decision }) => (decision.ok ? decision.fulfillment_id : null))
    const read = when(
      "lastmile-hand-over-when-accepted",
      { fulfillmentId },
      ({ fulfillmentId }) => !!fulfillmentId
    ).then(() =>
      useQueryGraphStep({
        entity: "fulfillment",
        fields: ["id", "delivered_at", "canceled_at"],
        filters: { id: fulfillmentId },
      }).config({ name: "lastmile-hand-over-read-fulfillment" })
    )
    // Medusa's pick-up: a pickup fulfillment goes from awaiting straight to delivered, once.
    when("lastmile-hand-over-when-medusa-delivers", { decision, read }, ({ decision, read }) => {
      const fulfillment = read?.data[0]
      return decision.ok && !!fulfillment && !fulfillment.delivered_at && !fulfillment.canceled_at
    }).then(() => {
      const delivery = transform({ decision }, ({ decision }) => ({
        orderId: accepted(decision).order_id,
        fulfillmentId: accepted(decision).fulfillment_id ?? "",
        // The plugin tells the shopper itself.
        no_notification: true,
      }))
      markOrderFulfillmentAsDeliveredWorkflow.runAsStep({ input: delivery })
    })
    when("lastmile-hand-over-when-recorded", { decision }, ({ decision }) => decision.ok).then(() => {
      const recorded = transform({ input, decision }, ({ input, decision }) => ({
        task_row_id: input.task_row_id,
        decision: accepted(decision),
        actor: input.actor,
        hold_days: input.hold_days,
      }))
      const event = recordHandOverStep(recorded)
      emitEventStep({ eventName: TASK_STATUS_CHANGED_EVENT, data: event })
      sendTaskNotificationsStep({
        task_row_id: input.task_row_id,
        lock_held: true,
        fulfillment_no_notification: input.no_notification,
      })
    })
    releaseLockStep({ key })
    return new WorkflowResponse(decision)
  }
)
