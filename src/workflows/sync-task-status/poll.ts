/**
 * The polling side of tracking, run every minute by the lastmile-tracking-poll
 * job: re-reads tasks whose webhook was stored but never processed, then open
 * tasks not read for `poll_interval_seconds`, oldest read first, at most
 * `poll_batch_size` of them, none booked more than `poll_max_age_days` ago.
 * A store without webhooks, or one that lost some, still converges.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { PluginSettingsService } from "../../modules/lastmile/services/plugin-settings"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import { WebhookEventsService } from "../../modules/lastmile/services/webhook-events"
import { errorMessage } from "../../lib/support/error-message"
import type { SyncOutcome } from "../../lib/tracking/task-sync"
import { syncTaskStatus } from "./run"

/** A stored webhook still unprocessed this long after it arrived is picked up by the job. */
export const STRANDED_WEBHOOK_AFTER_MS = 60_000
const CONCURRENCY = 4

export async function pollOpenTasks(
  container: MedusaContainer,
  { now = new Date() }: { now?: Date } = {}
): Promise<Record<string, SyncOutcome>> {
  const options = PluginSettingsService.of(container).options
  const tasks = TaskRowsService.of(container)
  const events = WebhookEventsService.of(container)

  const stranded = (await events.list(
    {
      status: ["received", "failed"],
      created_at: { $lt: new Date(now.getTime() - STRANDED_WEBHOOK_AFTER_MS) },
      lastmile_task_id: { $ne: null },
    },
    { select: ["id", "lastmile_task_id"], take: options.pollBatchSize, order: { created_at: "ASC" } }
  )) as { id: string; lastmile_task_id: string }[]
  const ids = new Set(stranded.map((e) => e.lastmile_task_id))
  if (stranded.length) {
    // Failed events are retried once by the re-read below; they then count as received again.
    await events.update(stranded.map((e) => ({ id: e.id, status: "received" as const })))
  }

  if (options.pollIntervalSeconds > 0) {
    const open = {
      status: "booked",
      tracking_state: ["awaiting", "shipped"],
      booked_at: { $gte: new Date(now.getTime() - options.pollMaxAgeDays * 86_400_000) },
    }
    // Never-read tasks first (PostgreSQL sorts NULLs last), then the longest unread.
    const never = await tasks.list(
      { ...open, last_checked_at: null },
      { select: ["id"], take: options.pollBatchSize, order: { booked_at: "ASC" } }
    )
    const room = options.pollBatchSize - never.length
    const stale = room
      ? await tasks.list(
          { ...open, last_checked_at: { $lt: new Date(now.getTime() - options.pollIntervalSeconds * 1000) } },
          { select: ["id"], take: room, order: { last_checked_at: "ASC" } }
        )
      : []
    const due = [...never, ...stale]
    due.forEach((t) => ids.add(t.id))
  }

  const outcomes: Record<string, SyncOutcome> = {}
  const queue = [...ids]
  const worker = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        outcomes[id] = await syncTaskStatus(container, id, { source: "poll" })
      } catch (error) {
        outcomes[id] = { outcome: `not updated: ${errorMessage(error)}`, changed: false, ok: false }
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return outcomes
}
