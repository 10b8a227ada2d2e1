/**
 * The webhook events waiting for the task when the run starts, under its lock: this run answers them. Should it fail,
 * its compensation answers them as failed, so the polling job reads the task again.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { WebhookEventsService } from "../../../modules/lastmile/services/webhook-events"
import { notUpdated } from "../../../lib/tracking/task-sync"

/** What a failed run leaves on its events; the reason is in the server log (the compensation is not told it). */
export const ROLLED_BACK_OUTCOME = notUpdated("the sync failed and was rolled back (see the server log)").outcome

export const listWaitingWebhookEventsStepId = "lastmile-list-waiting-webhook-events"

export const listWaitingWebhookEventsStep = createStep(
  listWaitingWebhookEventsStepId,
  async (input: { task_row_id: string }, { container }) => {
    const waiting = await WebhookEventsService.of(container).list(
      { lastmile_task_id: input.task_row_id, status: "received" },
      { select: ["id"] }
    )
    const ids = waiting.map((e) => e.id)
    return new StepResponse(ids, ids)
  },
  async (ids, { container }) => {
    if (!ids?.length) {
      return
    }
    await WebhookEventsService.of(container).update(
      ids.map((id) => ({ id, status: "failed" as const, outcome: ROLLED_BACK_OUTCOME, processed_at: new Date() }))
    )
  }
)
