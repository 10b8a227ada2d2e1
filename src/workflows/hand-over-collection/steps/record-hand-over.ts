/**
 * Records a hand-over on the task row (decision 65): the collection delivered, its history naming who handed it over
 * and how, the record's hand-over; undone when a later step fails.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { withHistoryEntry } from "../../../lib/tracking/task-history"
import { newCollectionRecord, readCollectionRecord } from "../../../lib/collection/collection-hold"
import { type HandOverDecision, handOverEntry, handedOverRecord } from "../../../lib/collection/hand-over"
import { type StatusChangedPayload } from "../../../lib/tracking/task-sync"

export interface RecordHandOverInput {
  task_row_id: string
  decision: Extract<HandOverDecision, { ok: true }>
  actor: { id: string | null; name: string | null }
  hold_days: number
}

export const recordHandOverStepId = "lastmile-record-hand-over"

export const recordHandOverStep = createStep(
  recordHandOverStepId,
  async ({ task_row_id, decision, actor, hold_days }: RecordHandOverInput, { container }) => {
    const tasks = TaskRowsService.of(container)
    const before = await tasks.retrieve(task_row_id)
    const record = readCollectionRecord(before.collection) ?? newCollectionRecord(hold_days)
    await tasks.update({
      id: before.id,
      tracking_state: "delivered",
      collection: handedOverRecord(record, decision, actor.id),
      status_history: withHistoryEntry(before.status_history, handOverEntry(decision, actor)),
    })
    // For merchants' own subscribers, as a status the service reported would be.
    const event: StatusChangedPayload = {
      id: before.id,
      kind: before.kind,
      order_id: before.order_id,
      return_id: before.return_id,
      fulfillment_id: before.fulfillment_id,
      task_id: before.task_id,
      tracking_id: before.tracking_id,
      previous_status: before.service_status,
      status: handOverEntry(decision, actor).value,
      phase: "delivered",
      previous_tracking_state: before.tracking_state,
      tracking_state: "delivered",
      source: "admin",
    }
    return new StepResponse<StatusChangedPayload, TaskRow>(event, before)
  },
  async (before, { container }) => {
    if (before) {
      await TaskRowsService.of(container).restore(before)
    }
  }
)
