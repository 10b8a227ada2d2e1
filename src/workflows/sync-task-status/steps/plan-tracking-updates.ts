/**
 * Reads what Medusa already knows of the parcel (the fulfillment's shipped_at
 * and delivered_at, or the return's status) and decides what it still has to
 * be told, so each core workflow runs only when needed. An unchanged tracking
 * state was applied when it was recorded, so Medusa is not read then.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import {
  type FulfillmentProgress,
  NO_UPDATES,
  type ReturnProgress,
  type TaskStatusReading,
  type TrackingUpdates,
  fulfillmentUpdates,
  returnUpdates,
  trackingStateMoved,
} from "../../../lib/tracking/task-sync"

export const planTrackingUpdatesStepId = "lastmile-plan-tracking-updates"

export const planTrackingUpdatesStep = createStep(
  planTrackingUpdatesStepId,
  async (reading: TaskStatusReading, { container }) => {
    if (reading.kind !== "status" || !trackingStateMoved(reading)) {
      return new StepResponse<TrackingUpdates>(NO_UPDATES)
    }
    const { task, tracking_state: state } = reading
    const query = container.resolve(ContainerRegistrationKeys.QUERY)

    if (task.kind === "delivery") {
      if (!task.fulfillment_id || state === "awaiting") {
        return new StepResponse(fulfillmentUpdates(task, state, null))
      }
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
      const fulfillment: FulfillmentProgress | undefined = data[0]
      return new StepResponse(fulfillmentUpdates(task, state, fulfillment))
    }

    const { markReturnsReceived } = PluginSettingsService.of(container).options
    const needed = state === "cancelled" || (markReturnsReceived && state === "delivered")
    if (!task.return_id || !needed) {
      return new StepResponse(returnUpdates(task, state, markReturnsReceived, null))
    }
    const { data } = await query.graph({
      entity: "return",
      fields: [
        "id",
        "status",
        "items.item_id",
        "items.quantity",
        "items.received_quantity",
        "fulfillments.id",
        "fulfillments.canceled_at",
        "fulfillments.shipped_at",
      ],
      filters: { id: task.return_id },
    })
    const row = data[0]
    const orderReturn: ReturnProgress | undefined = row && {
      status: row.status,
      items: row.items,
      fulfillment: (row.fulfillments ?? []).find((f: { id?: string } | null) => f?.id === task.fulfillment_id) ?? null,
    }
    return new StepResponse(returnUpdates(task, state, markReturnsReceived, orderReturn))
  }
)
