/** Processes a stored webhook: re-reads the task's state from the service and applies it. */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { errorMessage } from "../lib/booking/task-records"
import { LASTMILE_MODULE } from "../modules/lastmile"
import type { LastmileModuleService } from "../modules/lastmile/service"
import { syncTaskStatus } from "../lib/tracking/sync-task-status"
import { WEBHOOK_RECEIVED_EVENT } from "../lib/tracking/webhook-intake"

export default async function lastmileWebhookReceived({
  event,
  container,
}: SubscriberArgs<{ id: string }>): Promise<void> {
  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const [stored] = await module.listLastmileWebhookEvents({ id: event.data.id }, { take: 1 })
  if (!stored || stored.status !== "received" || !stored.lastmile_task_id) {
    return
  }
  // Never throws: a failure is kept on the event and the polling job re-reads the task.
  await syncTaskStatus(container, stored.lastmile_task_id, { source: "webhook", eventId: stored.id }).catch(
    (error: unknown) =>
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`lastmile: webhook ${stored.id} left for the polling job: ${errorMessage(error)}`)
  )
}

export const config: SubscriberConfig = {
  event: WEBHOOK_RECEIVED_EVENT,
  context: { subscriberId: "lastmile-webhook-received" },
}
