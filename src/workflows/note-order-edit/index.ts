/**
 * Never silent after booking: an order edit confirmed once the delivery is
 * booked puts a notice on the delivery (the order widget and
 * `GET /admin/lastmile/orders/:id` show it) and emits
 * `lastmile.delivery.edited_after_booking` for a host app's subscribers.
 */
import { emitEventStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, when } from "@medusajs/framework/workflows-sdk"
import { noteOrderEditStep } from "./steps/note-order-edit"
import type { EditAction } from "../../lib/booking/order-edit"

export const EDITED_AFTER_BOOKING_EVENT = "lastmile.delivery.edited_after_booking"

export const noteOrderEditWorkflowId = "lastmile-note-order-edit"

export const noteOrderEditWorkflow = createWorkflow(
  noteOrderEditWorkflowId,
  (input: { order_id: string; actions?: EditAction[] | null }) => {
    const edited = noteOrderEditStep(input)
    when("lastmile-note-order-edit-when-booked", { edited }, ({ edited }) => !!edited).then(() => {
      emitEventStep({ eventName: EDITED_AFTER_BOOKING_EVENT, data: edited })
    })
    return new WorkflowResponse(edited)
  }
)
