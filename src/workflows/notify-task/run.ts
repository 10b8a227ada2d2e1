/**
 * The notification pass, run every minute by the lastmile-tracking-poll job (decision 47): the tasks whose `notify_at`
 * has come, oldest first, at most `poll_batch_size` of them. Testable with a `now`.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { PluginSettingsService } from "../../modules/lastmile/services/plugin-settings"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import { notifyTaskWorkflow } from "./index"
import type { SentTaskNotifications } from "./steps/send-task-notifications"

export async function notifyDueTasks(
  container: MedusaContainer,
  { now = new Date() }: { now?: Date } = {}
): Promise<Record<string, SentTaskNotifications>> {
  const options = PluginSettingsService.of(container).options
  if (!options.notifications.enabled) {
    return {}
  }
  // A failed send's retry, a ready collection's reminder, a run that found the task's lock busy.
  const due = await TaskRowsService.of(container).list(
    { notify_at: { $lte: now } },
    { select: ["id"], take: options.pollBatchSize, order: { notify_at: "ASC" } }
  )
  const outcomes: Record<string, SentTaskNotifications> = {}
  for (const { id } of due) {
    // The step never fails its workflow; it reports what it did.
    const { result } = await notifyTaskWorkflow(container).run({ input: { task_row_id: id, now: now.toISOString() } })
    outcomes[id] = result
  }
  return outcomes
}

/**
 * A fulfillment was created (`order.fulfillment_created`): its task's shopper messages, held by the booking, go now,
 * or never when the event says the merchant asked for no notification (decision 60).
 */
export async function notifyFulfillmentCreated(
  container: MedusaContainer,
  event: { fulfillment_id?: string; no_notification?: boolean }
): Promise<Record<string, SentTaskNotifications>> {
  if (!event.fulfillment_id || !PluginSettingsService.of(container).options.notifications.enabled) {
    return {}
  }
  const rows = await TaskRowsService.of(container).list({ fulfillment_id: event.fulfillment_id }, { select: ["id"] })
  const outcomes: Record<string, SentTaskNotifications> = {}
  for (const { id } of rows) {
    const { result } = await notifyTaskWorkflow(container).run({
      input: { task_row_id: id, fulfillment_no_notification: event.no_notification === true },
    })
    outcomes[id] = result
  }
  return outcomes
}
