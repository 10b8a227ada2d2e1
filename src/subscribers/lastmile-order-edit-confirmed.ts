/** An edit confirmed after the delivery was booked is shown to the merchant and emitted, never silent. */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { noteOrderEditWorkflow } from "../workflows/note-order-edit"
import type { EditAction } from "../lib/booking/order-edit"

export default async function lastmileOrderEditConfirmed({
  event,
  container,
}: SubscriberArgs<{ order_id: string; actions?: EditAction[] }>): Promise<void> {
  await noteOrderEditWorkflow(container).run({ input: { order_id: event.data.order_id, actions: event.data.actions } })
}

export const config: SubscriberConfig = {
  event: "order-edit.confirmed",
  context: { subscriberId: "lastmile-order-edit-confirmed" },
}
