/**
 * What Medusa still has to be told of the task's new state (lib/tracking/task-sync.ts), so each core workflow runs
 * only when needed; a step, for `mark_returns_received` and `notifications.shipments_no_notification`.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import {
  type FulfillmentProgress,
  type TaskStatusReading,
  type TrackingUpdates,
  returnProgressOf,
  trackingUpdatesOf,
} from "../../../lib/tracking/task-sync"

export interface PlanTrackingUpdatesInput {
  reading: TaskStatusReading
  /** The delivery's fulfillment, when it was read. */
  fulfillment?: FulfillmentProgress | null
  /** The return, as read, when it was. */
  order_return?: Parameters<typeof returnProgressOf>[0] | null
}

export const planTrackingUpdatesStepId = "lastmile-plan-tracking-updates"

export const planTrackingUpdatesStep = createStep(
  planTrackingUpdatesStepId,
  async ({ reading, fulfillment, order_return }: PlanTrackingUpdatesInput, { container }) => {
    const { markReturnsReceived, notifications } = PluginSettingsService.of(container).options
    const fulfillmentId = reading.kind === "status" ? reading.task.fulfillment_id : null
    const orderReturn = order_return ? returnProgressOf(order_return, fulfillmentId) : null
    // While the plugin tells the shopper, Medusa's shipment and delivery events carry no_notification (decision 60).
    const quiet = notifications.enabled && notifications.shipmentsNoNotification
    return new StepResponse<TrackingUpdates>(
      trackingUpdatesOf(reading, markReturnsReceived, { fulfillment, orderReturn }, quiet)
    )
  }
)
