/**
 * Cancelling a booked delivery (decision 6): a task live at the service refuses, naming where to cancel it; Medusa's
 * fulfillment follows the service, or the merchant's deliberate cancel.
 */
import type { LastmileFulfillmentData } from "../contracts/plugin-data"

/** Why Medusa's fulfillment may not be cancelled now, in words the merchant can act on; null when it may. */
export function cancelRefusal(data: LastmileFulfillmentData | null): string | null {
  if (!data || data.cancelled) {
    return null
  }
  const what = data.kind === "return" ? "return" : data.kind === "collection" ? "collection" : "delivery"
  const tracking = data.trackingId ? `, tracking ${data.trackingId}` : ""
  return (
    `This ${what} is booked with the lastmile service as task ${String(data.taskId)}${tracking}, and the service ` +
    `has no cancel operation. Cancel task ${String(data.taskId)} in the service's app: once the service reports it ` +
    `cancelled, this fulfillment is cancelled for you (the order's Lastmile panel has Refresh, and Cancel anyway ` +
    `for when the courier confirmed it by other means).`
  )
}
