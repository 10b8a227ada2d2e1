/**
 * Answers the webhook events the run started with: processed when the state was read and applied, failed (kept for
 * the polling job) when not, with the outcome in words. Its compensation puts them back.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { WebhookEventsService } from "../../../modules/lastmile/services/webhook-events"
import type { SyncOutcome } from "../../../lib/tracking/task-sync"

export interface SettleWebhookEventsInput {
  event_ids: string[]
  outcome: SyncOutcome
}

type EventStatus = "received" | "processed" | "ignored" | "duplicate" | "failed" | "refused"

interface PreviousEvent {
  id: string
  status: EventStatus
  outcome: string | null
  processed_at: string | null
}

export const settleWebhookEventsStepId = "lastmile-settle-webhook-events"

export const settleWebhookEventsStep = createStep(
  settleWebhookEventsStepId,
  async ({ event_ids, outcome }: SettleWebhookEventsInput, { container }) => {
    if (!event_ids.length) {
      return new StepResponse<void, PreviousEvent[]>(undefined, [])
    }
    const events = WebhookEventsService.of(container)
    const before = await events.list({ id: event_ids }, { select: ["id", "status", "outcome", "processed_at"] })
    const processedAt = new Date()
    await events.update(
      event_ids.map((id) => ({
        id,
        status: outcome.ok ? ("processed" as const) : ("failed" as const),
        outcome: outcome.outcome,
        processed_at: processedAt,
      }))
    )
    const previous: PreviousEvent[] = before.map((e) => ({
      id: e.id,
      status: e.status,
      outcome: e.outcome,
      processed_at: e.processed_at ? new Date(e.processed_at).toISOString() : null,
    }))
    return new StepResponse<void, PreviousEvent[]>(undefined, previous)
  },
  async (previous, { container }) => {
    if (!previous?.length) {
      return
    }
    await WebhookEventsService.of(container).update(
      previous.map((e) => ({ ...e, processed_at: e.processed_at ? new Date(e.processed_at) : null }))
    )
  }
)
