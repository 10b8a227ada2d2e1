/**
 * Never silent after booking (decision 22): an order edit confirmed once the delivery is booked puts a notice on it
 * and emits `lastmile.delivery.edited_after_booking` for a host app's subscribers.
 */
import { emitEventStep, useQueryGraphStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import { noteOrderEditStep } from "./steps/note-order-edit"
import { type EditAction, editDifference } from "../../lib/booking/order-edit"

export const EDITED_AFTER_BOOKING_EVENT = "lastmile.delivery.edited_after_booking"

export const noteOrderEditWorkflowId = "lastmile-note-order-edit"

export const noteOrderEditWorkflow = createWorkflow(
  noteOrderEditWorkflowId,
  (input: { order_id: string; actions?: EditAction[] | null }) => {
    const difference = transform({ input }, ({ input }) => editDifference(input.actions))
    const ids = transform({ difference }, ({ difference }) =>
      [...difference.added, ...difference.removed].map((l) => l.line_item_id)
    )
    // The changed lines' titles, which name them in the notice (an edit that changed no line reads none).
    const read = when("lastmile-note-order-edit-when-lines-changed", { ids }, ({ ids }) => ids.length > 0).then(() =>
      useQueryGraphStep({ entity: "order_line_item", fields: ["id", "title", "variant_title"], filters: { id: ids } })
    )
    const lines = transform({ read }, ({ read }) => read?.data ?? [])
    const edited = noteOrderEditStep({ order_id: input.order_id, difference, lines })
    when("lastmile-note-order-edit-when-booked", { edited }, ({ edited }) => !!edited).then(() => {
      emitEventStep({ eventName: EDITED_AFTER_BOOKING_EVENT, data: edited })
    })
    return new WorkflowResponse(edited)
  }
)
