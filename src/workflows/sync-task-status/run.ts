/**
 * Runs syncTaskStatusWorkflow for the webhook subscriber, the polling job and the admin's refresh button, coalescing
 * bursts in this process. A failed run is an outcome, never thrown: the polling job reads the task again.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { syncTaskStatusWorkflow } from "./index"
import { TrackingRunsService } from "../../modules/lastmile/services/tracking-runs"
import { PluginSettingsService } from "../../modules/lastmile/services/plugin-settings"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import { WebhookEventsService } from "../../modules/lastmile/services/webhook-events"
import { errorMessage } from "../../lib/support/error-message"
import { type SyncOutcome, type SyncSource, notUpdated } from "../../lib/tracking/task-sync"

/**
 * A core workflow refusing with NOT_ALLOWED means the fulfillment or return
 * moved under the run (say, the merchant marked it shipped in the dashboard
 * after the run read it): one more run reads it again and skips what is done.
 */
const RUNS_ON_REFUSAL = 2

export async function syncTaskStatus(
  container: MedusaContainer,
  taskRowId: string,
  { source }: { source: SyncSource }
): Promise<SyncOutcome> {
  let failure: unknown
  for (let run = 1; run <= RUNS_ON_REFUSAL; run++) {
    const { result, errors } = await syncTaskStatusWorkflow(container).run({
      input: { task_row_id: taskRowId, source },
      throwOnError: false,
    })
    if (!errors.length) {
      return result
    }
    failure = errors[0].error
    if (!isRefusal(failure)) {
      break
    }
  }
  const message = errorMessage(failure)
  container
    .resolve(ContainerRegistrationKeys.LOGGER)
    .warn(`lastmile: tracking ${taskRowId} not updated (${source}): ${message}`)
  return notUpdated(message)
}

// Errors come back from the workflow engine as plain objects that keep a MedusaError's own `type`.
function isRefusal(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    MedusaError.isMedusaError(error) &&
    "type" in error &&
    error.type === MedusaError.Types.NOT_ALLOWED
  )
}

/**
 * Syncs a task, coalescing requests within this process (the module holds
 * the runs): while a sync of the task runs, at most one more is queued and
 * every later request joins it, so ten identical webhooks cost one or two
 * lookups. (The workflow's lock covers other instances.)
 */
export function requestTaskSync(
  container: MedusaContainer,
  taskRowId: string,
  source: SyncSource
): Promise<SyncOutcome> {
  return TrackingRunsService.of(container).syncRuns.request(taskRowId, () =>
    syncTaskStatus(container, taskRowId, { source })
  )
}

/** A stored webhook still unprocessed this long after it arrived is picked up by the job. */
export const STRANDED_WEBHOOK_AFTER_MS = 60_000
const CONCURRENCY = 4

/**
 * The polling side (every minute, the lastmile-tracking-poll job): tasks whose webhook was stored but never processed,
 * then open tasks not read for `poll_interval_seconds`, oldest read first, at most `poll_batch_size`, none booked more
 * than `poll_max_age_days` ago: a store without webhooks, or one that lost some, still converges.
 */
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
