/**
 * An exchange's or a claim's two bookings, when it is confirmed: its inbound items (a return, when it uses the lastmile
 * return option) and its replacement (a delivery of its own, unless the merchant books at fulfillment, when their
 * fulfil books it). Never throws.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PluginSettingsService } from "../../modules/lastmile/services/plugin-settings"
import { booksOnPlacement } from "../../lib/options/plugin-options"
import { type TaskBookingOutcome, bookTask } from "./run"

export async function bookReplacement(container: MedusaContainer, orderId: string, referenceId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: referenceId.startsWith("claim") ? "order_claim" : "order_exchange",
    fields: ["id", "return_id"],
    filters: { id: referenceId },
  })
  const returnId: string | null | undefined = data[0]?.return_id
  const outcomes: Partial<Record<"return" | "delivery", TaskBookingOutcome>> = {}
  if (returnId) {
    outcomes.return = await bookTask(container, { kind: "return", return_id: returnId })
  }
  if (booksOnPlacement(PluginSettingsService.of(container).options)) {
    outcomes.delivery = await bookTask(container, { kind: "order", order_id: orderId, reference_id: referenceId })
  }
  return outcomes
}
