/**
 * Marks a booked fulfillment as one Medusa may cancel (decision 6; the provider's `cancelFulfillment` reads the mark),
 * and records how on the task row: the service reported it cancelled, or the merchant cancelled it (who, when).
 */
import type { IFulfillmentModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { withHistoryEntry } from "../../../lib/tracking/task-history"
import type { TaskCancellation } from "../../../lib/contracts/admin-api"

export interface MarkCancelledInput {
  task_row_id: string
  fulfillment_id: string
  by: "service" | "merchant"
  actor_id?: string | null
  service_status?: string | null
  /** The merchant's cancel from the admin: tracking ends here (the sync closes it itself when the service reports it). */
  close_tracking?: boolean
  /** A collection cancelled because nobody came for it by its collect-by (decision 65). */
  reason?: "not_collected" | null
}

interface Previous {
  task: TaskRow
  fulfillment_id: string
  data: Record<string, unknown> | null
}

export const markCancelledStepId = "lastmile-mark-cancelled"

export const markCancelledStep = createStep(
  markCancelledStepId,
  async (input: MarkCancelledInput, { container }) => {
    const tasks = TaskRowsService.of(container)
    const fulfillments = container.resolve<IFulfillmentModuleService>(Modules.FULFILLMENT)
    const task = await tasks.retrieve(input.task_row_id)
    const fulfillment = await fulfillments.retrieveFulfillment(input.fulfillment_id, { select: ["id", "data"] })
    const data = (fulfillment.data ?? null) as Record<string, unknown> | null
    await fulfillments.updateFulfillment(input.fulfillment_id, { data: { ...(data ?? {}), cancelled: input.by } })
    const cancellation: TaskCancellation = {
      by: input.by,
      at: new Date().toISOString(),
      actor_id: input.actor_id ?? null,
      service_status: input.service_status ?? null,
      ...(input.reason ? { reason: input.reason } : {}),
    }
    const history = withHistoryEntry(task.status_history, {
      value: input.by === "service" ? "cancelled_in_medusa" : "cancelled_by_merchant",
      source: input.by === "service" ? "service" : "admin",
      detail:
        input.by === "service"
          ? "The service reported the task cancelled: Medusa's fulfillment was cancelled."
          : `Cancelled in Medusa${input.reason === "not_collected" ? " as not collected" : ""} by ${input.actor_id ?? "an admin user"} while the service showed ${input.service_status ?? "no status"}.`,
    })
    await tasks.update({
      id: task.id,
      cancellation: { ...cancellation },
      // The parcel is no longer Medusa's to follow.
      ...(input.close_tracking
        ? {
            tracking_state: "cancelled",
            status_history: withHistoryEntry(history, { value: "tracking_closed", source: "admin" }),
          }
        : { status_history: history }),
    })
    return new StepResponse(cancellation, { task, fulfillment_id: input.fulfillment_id, data } satisfies Previous)
  },
  async (previous, { container }) => {
    if (!previous) {
      return
    }
    await container
      .resolve<IFulfillmentModuleService>(Modules.FULFILLMENT)
      .updateFulfillment(previous.fulfillment_id, { data: previous.data })
    await TaskRowsService.of(container).restore(previous.task)
  }
)
