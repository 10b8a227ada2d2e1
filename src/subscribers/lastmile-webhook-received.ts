/** Processes stored webhooks: re-reads the task's state from the service and applies it. */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { errorMessage } from "../lib/support/error-message"
import { requestTaskSync } from "../workflows/sync-task-status/run"
import { type BellData, WEBHOOK_RECEIVED_EVENT } from "../lib/tracking/webhook-bells"

export default async function lastmileWebhookReceived({ event, container }: SubscriberArgs<BellData>): Promise<void> {
  // Coalesced per task: a burst of webhooks for one task costs one or two re-reads.
  // Never throws: a failure is kept on the events and the polling job re-reads the task.
  await requestTaskSync(container, event.data.lastmile_task_id, "webhook").catch((error: unknown) =>
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`lastmile: webhook ${event.data.id} left for the polling job: ${errorMessage(error)}`)
  )
}

export const config: SubscriberConfig = {
  event: WEBHOOK_RECEIVED_EVENT,
  context: { subscriberId: "lastmile-webhook-received" },
}
