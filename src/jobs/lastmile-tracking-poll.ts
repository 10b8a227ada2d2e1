/**
 * Every minute: re-read open tasks (at the plugin's poll cadence) and any webhook left unprocessed, then send the
 * messages that fell due (retries, collection reminders).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { pollOpenTasks } from "../workflows/sync-task-status/run"
import { notifyDueTasks } from "../workflows/notify-task/run"

export default async function lastmileTrackingPoll(container: MedusaContainer): Promise<void> {
  const outcomes = await pollOpenTasks(container)
  const changed = Object.values(outcomes).filter((o) => o.changed).length
  const failed = Object.values(outcomes).filter((o) => !o.ok).length
  if (changed || failed) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(
        `lastmile: tracking poll read ${Object.keys(outcomes).length} task(s): ${changed} changed, ${failed} failed`
      )
  }
  await notifyDueTasks(container)
}

export const config = {
  name: "lastmile-tracking-poll",
  schedule: "* * * * *",
}
