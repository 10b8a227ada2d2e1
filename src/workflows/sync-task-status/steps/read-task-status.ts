/**
 * Reads the task row and re-reads the task's state from the service's lookup, never from a webhook body (decision 14),
 * mapped through the status table.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { taskModeOf } from "../../../lib/notifications/due-notifications"
import { readCollectionRecord } from "../../../lib/collection/collection-hold"
import { collectByOf } from "../../../lib/collection/store-calendar"
import { storeCalendarOf } from "../../../lib/collection/readiness"
import { storeDaysOf } from "../../extend-collection/steps/read-store-days"
import { errorMessage } from "../../../lib/support/error-message"
import {
  type SyncSource,
  type TaskStatusReading,
  notUpdated,
  statusReading,
  trackedTaskOf,
} from "../../../lib/tracking/task-sync"

export interface ReadTaskStatusInput {
  task_row_id: string
  source: SyncSource
}

export const readTaskStatusStepId = "lastmile-read-task-status"

export const readTaskStatusStep = createStep(
  readTaskStatusStepId,
  async (input: ReadTaskStatusInput, { container }) => {
    let reading: TaskStatusReading
    try {
      reading = await readTaskStatus(container, input.task_row_id)
    } catch (error) {
      // An outcome, not a failure of the run: nothing has changed yet, and the waiting events are answered with it.
      const message = errorMessage(error)
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`lastmile: tracking ${input.task_row_id} not updated (${input.source}): ${message}`)
      reading = { kind: "stopped", outcome: notUpdated(message).outcome, ok: false }
    }
    return new StepResponse(reading)
  }
)

async function readTaskStatus(container: MedusaContainer, taskRowId: string): Promise<TaskStatusReading> {
  const row = await TaskRowsService.of(container).retrieve(taskRowId)
  const task = { ...trackedTaskOf(row), mode: taskModeOf(row) }
  if (task.status !== "booked" || !task.task_id) {
    return { kind: "stopped", outcome: `task is ${task.status}, not booked yet: nothing to track`, ok: true }
  }
  const connection = ServiceConnectionService.of(container).get()
  if (!connection) {
    return { kind: "stopped", outcome: "the lastmile provider is not configured", ok: false }
  }
  const remote = await connection.client.findTask(task.merchant_order_id, {
    kind: task.kind === "delivery" ? "DELIVERY" : "RETURN",
    taskId: task.task_id,
  })
  const now = new Date()
  if (!remote?.status?.value) {
    return {
      kind: "no_status",
      task_row_id: task.id,
      checked_at: now.toISOString(),
      outcome: `the service's lookup shows no status for task ${task.task_id}`,
    }
  }
  const options = PluginSettingsService.of(container).options
  const read = statusReading(task, remote.status.value, options.statusTable, now)
  // Handed over at the counter is final: the service's own "collected" after it changes nothing (decision 65).
  const reading = readCollectionRecord(row.collection)?.handed_over ? { ...read, changed: false } : read
  // The spec shows no window on a task; the schema keeps one a service adds only when it is two times.
  const window = remote.window as { from?: unknown; to?: unknown } | undefined
  const withWindow =
    typeof window?.from === "string" && typeof window.to === "string"
      ? { ...reading, window: { from: window.from, to: window.to } }
      : reading
  const firstReady =
    task.mode === "collection" &&
    options.notifications.statusEvents.stepOf(reading.value, "collection") === "ready_for_collection" &&
    !readCollectionRecord(row.collection)?.ready_at
  return firstReady ? { ...withWindow, collection_ready: await collectionHold(container, row, now) } : withWindow
}

/**
 * A collection first read ready is held for `collection.hold_days` open days, to the store's closing time (decision
 * 65): its days from the service's hours and the merchant's closed dates; a store whose days cannot be read holds it
 * by calendar days, to the end of the day, in the store's zone as the options give it.
 */
async function collectionHold(container: MedusaContainer, row: TaskRow, now: Date) {
  const days = await storeDaysOf(container, row)
  const calendar = storeCalendarOf(days.operating_hours, days.closed_dates, days.fallback_zone)
  const holdDays =
    readCollectionRecord(row.collection)?.hold_days ?? PluginSettingsService.of(container).options.collection.holdDays
  return { ready_at: now.toISOString(), collect_by: collectByOf(now, holdDays, calendar).toISOString() }
}
