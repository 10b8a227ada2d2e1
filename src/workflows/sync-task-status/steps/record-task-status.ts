/**
 * Records the read on the task row: when it was read, the tracking state (forward-only), and when the service's value
 * changed, the value, a history entry and any status the table does not know.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { type SyncSource, type TaskStatusReading, taskStatusFields } from "../../../lib/tracking/task-sync"
import type { TrackingState } from "../../../lib/tracking/status-table"
import { readCollectionRecord, withReady } from "../../../lib/collection/collection-hold"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"

export interface RecordTaskStatusInput {
  reading: TaskStatusReading
  source: SyncSource
}

/** The fields as they were before this step; times as ISO strings, as step data travels. */
interface PreviousFields {
  id: string
  last_checked_at: string | null
  tracking_state?: TrackingState
  service_status?: string | null
  status_history?: Record<string, unknown>
  unmapped_status?: string | null
  collection?: Record<string, unknown> | null
}

export const recordTaskStatusStepId = "lastmile-record-task-status"

export const recordTaskStatusStep = createStep(
  recordTaskStatusStepId,
  async ({ reading, source }: RecordTaskStatusInput, { container }) => {
    if (reading.kind === "stopped") {
      return new StepResponse<void, PreviousFields | undefined>(undefined, undefined)
    }
    const tasks = TaskRowsService.of(container)
    const id = reading.kind === "status" ? reading.task.id : reading.task_row_id
    const before = await tasks.retrieve(id)
    const previous: PreviousFields = {
      id,
      last_checked_at: before.last_checked_at ? new Date(before.last_checked_at).toISOString() : null,
    }

    if (reading.kind === "no_status") {
      await tasks.update({ id, last_checked_at: new Date(reading.checked_at) })
      return new StepResponse<void, PreviousFields>(undefined, previous)
    }

    // A collection first read ready starts its hold (decision 65).
    const ready = reading.collection_ready
    const collection = ready
      ? {
          collection: withReady(
            readCollectionRecord(before.collection),
            ready,
            PluginSettingsService.of(container).options.collection.holdDays
          ),
        }
      : {}
    await tasks.update({ id, ...taskStatusFields(reading, before.status_history, source), ...collection })
    if (reading.phase === null && reading.changed) {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(
          `lastmile: task ${reading.task.task_id} has status ${JSON.stringify(reading.value)}, which the status table ` +
            `does not know; recorded as is. Map it with the plugin option status_map.`
        )
    }
    return new StepResponse<void, PreviousFields>(undefined, {
      ...previous,
      tracking_state: before.tracking_state,
      service_status: before.service_status,
      status_history: before.status_history,
      unmapped_status: before.unmapped_status,
      ...(ready ? { collection: before.collection as Record<string, unknown> | null } : {}),
    })
  },
  // The fields back as they were: a later failure leaves the row to the next read.
  async (previous, { container }) => {
    if (!previous) {
      return
    }
    const { last_checked_at, ...rest } = previous
    await TaskRowsService.of(container).update({
      ...rest,
      last_checked_at: last_checked_at ? new Date(last_checked_at) : null,
    })
  }
)
