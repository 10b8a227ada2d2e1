/**
 * Runs the hand-over for the admin's route and for Medusa's own "Mark as picked up" (decision 65): what it came to as
 * data, for the route to answer; the admin user named by their email in the task's history.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { runRefusal } from "../run-refusal"
import { handOverCollectionWorkflow } from "./index"
import { PluginSettingsService } from "../../modules/lastmile/services/plugin-settings"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import type { HandOverAsk } from "../../lib/collection/collection-hold"
import type { HandOverDecision } from "../../lib/collection/hand-over"
import { readUserName } from "../../lib/collection/medusa/read-user-name"
import { errorMessage } from "../../lib/support/error-message"

export async function handOverCollection(
  container: MedusaContainer,
  taskRowId: string,
  ask: HandOverAsk,
  actorId: string | null,
  { no_notification, lock_timeout }: { no_notification?: boolean; lock_timeout?: number } = {}
): Promise<HandOverDecision> {
  const actor = { id: actorId, name: await readUserName(container, actorId) }
  const { result, errors } = await handOverCollectionWorkflow(container).run({
    input: {
      task_row_id: taskRowId,
      ask,
      actor,
      hold_days: PluginSettingsService.of(container).options.collection.holdDays,
      no_notification,
      lock_timeout,
    },
    throwOnError: false,
  })
  if (errors.length) {
    // A core flow's refusal (a fulfillment Medusa will not mark delivered) keeps its type; nothing was recorded.
    throw runRefusal(errors[0], "The collection was not handed over")
  }
  return result
}

/**
 * A fulfillment marked picked up in Medusa's own dashboard (`delivery.created`): its collection's task catches up, as
 * a hand-over without the code, so the merchant is not told later that nobody came. Never throws.
 */
export async function catchUpMedusaPickUp(
  container: MedusaContainer,
  event: { id?: string; no_notification?: boolean }
): Promise<void> {
  if (!event.id) {
    return
  }
  try {
    const rows = await TaskRowsService.of(container).list(
      { fulfillment_id: event.id, tracking_state: ["awaiting", "shipped"] },
      { select: ["id", "mode", "kind", "rate_code"] }
    )
    for (const row of rows.filter((r) => r.mode === "collection")) {
      await handOverCollection(container, row.id, { picked_up_in_medusa: true }, null, {
        no_notification: event.no_notification === true,
        // A sync may hold the task's lock while it asks the service (its lock lives 120 s): wait it out.
        lock_timeout: 130,
      })
    }
  } catch (error) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`lastmile: a pick-up marked in Medusa was not recorded on its collection: ${errorMessage(error)}`)
  }
}
