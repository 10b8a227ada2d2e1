/**
 * An exchange's or a claim's two bookings, when it is confirmed: its inbound
 * items (a return, when it uses the lastmile return option) and its
 * replacement (a delivery of its own, unless the merchant books at
 * fulfillment, when their fulfil books it). Never throws.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { booksOnPlacement } from "../../lib/options/plugin-options"
import { type BookingOutcome, bookOrderDelivery } from "./run"
import { type ReturnBookingOutcome, bookReturn } from "../book-return/run"

export async function bookReplacement(
  container: MedusaContainer,
  orderId: string,
  referenceId: string
): Promise<{ return?: ReturnBookingOutcome; delivery?: BookingOutcome }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: referenceId.startsWith("claim") ? "order_claim" : "order_exchange",
    fields: ["id", "return_id"],
    filters: { id: referenceId },
  })
  const returnId = (data[0] as { return_id?: string | null } | undefined)?.return_id
  const outcomes: { return?: ReturnBookingOutcome; delivery?: BookingOutcome } = {}
  if (returnId) {
    outcomes.return = await bookReturn(container, returnId)
  }
  if (booksOnPlacement(container.resolve<LastmileModuleService>(LASTMILE_MODULE).getPluginOptions())) {
    outcomes.delivery = await bookOrderDelivery(container, orderId, { referenceId })
  }
  return outcomes
}
