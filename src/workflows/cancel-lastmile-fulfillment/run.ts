/**
 * The merchant's deliberate cancel of a booked task before the service says so (decision 6; the courier phoned): the
 * task is read again from the service first, and the override recorded with who made it and what the service showed.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { cancelLastmileFulfillmentWorkflow } from "./index"
import { PluginSettingsService } from "../../modules/lastmile/services/plugin-settings"
import { ServiceConnectionService } from "../../modules/lastmile/services/service-connection"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import { errorMessage } from "../../lib/support/error-message"
import { taskModeOf } from "../../lib/notifications/due-notifications"

export interface CancelledTask {
  by: "service" | "merchant"
  service_status: string | null
}

export async function cancelTaskAnyway(
  container: MedusaContainer,
  taskRowId: string,
  actorId: string | null,
  { reason }: { reason?: "not_collected" } = {}
): Promise<CancelledTask> {
  const task = await TaskRowsService.of(container).retrieve(taskRowId)
  if (reason === "not_collected" && taskModeOf(task) !== "collection") {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, 'reason "not_collected" is for a collection from a store')
  }
  if (task.status !== "booked" || !task.fulfillment_id || !task.task_id) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `This ${task.kind} is not booked (${task.status}): cancel the order or the fulfillment in Medusa as usual.`
    )
  }
  if (task.cancellation) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Medusa's side of this task is cancelled already.")
  }
  let serviceStatus: string | null = null
  const connection = ServiceConnectionService.of(container).get()
  try {
    const remote = connection
      ? await connection.client.findTask(task.merchant_order_id, {
          kind: task.kind === "delivery" ? "DELIVERY" : "RETURN",
          taskId: task.task_id,
        })
      : null
    serviceStatus = remote?.status?.value ?? null
  } catch (error) {
    // The merchant cancels anyway: what the service could not tell is recorded too.
    serviceStatus = `unreadable: ${errorMessage(error)}`
  }
  const phase = serviceStatus ? PluginSettingsService.of(container).options.statusTable.phaseOf(serviceStatus) : null
  // The service does show it cancelled: that is recorded instead.
  const by = phase === "cancelled" ? "service" : "merchant"
  const { errors } = await cancelLastmileFulfillmentWorkflow(container).run({
    input: {
      task_row_id: task.id,
      kind: task.kind,
      order_id: task.order_id,
      fulfillment_id: task.fulfillment_id,
      by,
      actor_id: actorId,
      service_status: serviceStatus,
      close_tracking: true,
      reason: reason ?? null,
    },
    throwOnError: false,
  })
  if (errors.length) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Medusa did not cancel it: ${errorMessage(errors[0].error)}`)
  }
  return { by, service_status: serviceStatus }
}
