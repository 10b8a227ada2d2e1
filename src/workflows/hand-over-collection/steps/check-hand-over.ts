/**
 * Whether a collection may be handed over (decision 65): the code (five wrong in 15 minutes lock it) or an override.
 * A wrong code is counted on the row and stays counted; the decision is data, answered without the run failing.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import {
  type HandOverAsk,
  checkHandOver,
  handOverRefusal,
  newCollectionRecord,
  readCollectionRecord,
} from "../../../lib/collection/collection-hold"
import { taskModeOf } from "../../../lib/notifications/due-notifications"
import type { HandOverDecision } from "../../../lib/collection/hand-over"
import { readFulfillmentCancelled } from "../../../lib/collection/medusa/read-fulfillment-cancelled"

export interface CheckHandOverInput {
  task_row_id: string
  ask: HandOverAsk
  /** ISO 8601; now when absent. */
  now?: string
  hold_days: number
}

export const checkHandOverStepId = "lastmile-check-hand-over"

export const checkHandOverStep = createStep(
  checkHandOverStepId,
  async ({ task_row_id, ask, now: at, hold_days }: CheckHandOverInput, { container }) => {
    const tasks = TaskRowsService.of(container)
    const row = await tasks.retrieve(task_row_id)
    const now = at ? new Date(at) : new Date()
    if (taskModeOf(row) !== "collection") {
      return decided({ ok: false, refusal: "not_allowed", message: "Only a collection from a store is handed over." })
    }
    const record = readCollectionRecord(row.collection) ?? newCollectionRecord(hold_days)
    const state = { status: row.status, tracking_state: row.tracking_state, cancelled: !!row.cancellation }
    const refusal = handOverRefusal(state, record) ?? (await cancelledInMedusa(container, row.fulfillment_id))
    if (refusal) {
      return decided({ ok: false, refusal: "not_allowed", message: refusal })
    }
    const check = checkHandOver(record, ask, now)
    if (!check.ok) {
      if (check.record) {
        await tasks.update({ id: row.id, collection: check.record })
      }
      if (check.refusal === "wrong_code") {
        return decided({
          ok: false,
          refusal: "wrong_code",
          message: "That code does not match",
          attempts_left: check.attempts_left,
        })
      }
      return decided({
        ok: false,
        refusal: "locked",
        message:
          "Five wrong codes in 15 minutes: Hand over by code is locked for now. Try again later, or hand over without the code and say why.",
        retry_at: check.retry_at,
      })
    }
    return decided({
      ok: true,
      via: check.via,
      reason: check.reason,
      order_id: row.order_id,
      fulfillment_id: row.fulfillment_id,
      at: now.toISOString(),
    })
  }
)

/** Goods whose fulfillment Medusa cancelled went back to stock: they are not handed over (nor a code counted). */
async function cancelledInMedusa(container: MedusaContainer, fulfillmentId: string | null): Promise<string | null> {
  return fulfillmentId && (await readFulfillmentCancelled(container, fulfillmentId))
    ? "Medusa's fulfillment of this collection is cancelled, so its items are back in stock: it cannot be handed over."
    : null
}

function decided(decision: HandOverDecision) {
  return new StepResponse(decision)
}
