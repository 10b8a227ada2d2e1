/**
 * Extends a ready collection's hold by open days (decision 65): the new collect-by from the store's days, recorded
 * with who asked; a collection that cannot be extended is refused in words. Undone when a later step fails.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { withHistoryEntry } from "../../../lib/tracking/task-history"
import {
  currentCollectBy,
  extendRefusal,
  readCollectionRecord,
  withExtension,
} from "../../../lib/collection/collection-hold"
import { extendedCollectBy } from "../../../lib/collection/store-calendar"
import { storeCalendarOf } from "../../../lib/collection/readiness"
import type { StoreDaysRead } from "../../../lib/collection/medusa/read-store-pickup"
import { taskModeOf } from "../../../lib/notifications/due-notifications"

export interface ExtendHoldInput {
  task_row_id: string
  days: number
  store: StoreDaysRead
  actor: { id: string | null; name: string | null }
  now?: string
}

export const extendHoldStepId = "lastmile-extend-hold"

export const extendHoldStep = createStep(
  extendHoldStepId,
  async ({ task_row_id, days, store, actor, now: at }: ExtendHoldInput, { container }) => {
    const tasks = TaskRowsService.of(container)
    const before = await tasks.retrieve(task_row_id)
    const now = at ? new Date(at) : new Date()
    const record = readCollectionRecord(before.collection)
    const refusal =
      taskModeOf(before) !== "collection"
        ? "Only a collection from a store is held and extended."
        : extendRefusal(
            { status: before.status, tracking_state: before.tracking_state, cancelled: !!before.cancellation },
            record
          )
    if (refusal || !record) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal ?? "This collection has no hold to extend.")
    }
    const calendar = storeCalendarOf(store.operating_hours, store.closed_dates, store.fallback_zone)
    const collectBy = extendedCollectBy(new Date(currentCollectBy(record) ?? now), days, calendar, now).toISOString()
    const who = actor.name ?? actor.id ?? "an admin user"
    await tasks.update({
      id: before.id,
      collection: withExtension(record, { at: now.toISOString(), days, collect_by: collectBy, actor_id: actor.id }),
      status_history: withHistoryEntry(before.status_history, {
        value: "collection_extended",
        source: "admin",
        actor_id: actor.id,
        detail: `Held ${days} more open ${days === 1 ? "day" : "days"}, until ${collectBy}, by ${who}.`,
        at: now,
      }),
    })
    return new StepResponse<{ collect_by: string }, TaskRow>({ collect_by: collectBy }, before)
  },
  async (before, { container }) => {
    if (before) {
      await TaskRowsService.of(container).restore(before)
    }
  }
)
