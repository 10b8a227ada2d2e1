/**
 * Runs syncTaskStatusWorkflow for the webhook subscriber, the polling job
 * and the admin's refresh button, and coalesces bursts within this process.
 * A run that fails is reported as an outcome, never thrown: the polling job
 * reads the task again.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { syncTaskStatusWorkflow } from "./index"
import { TrackingRunsService } from "../../modules/lastmile/services/tracking-runs"
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
