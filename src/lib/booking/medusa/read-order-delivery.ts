/**
 * The order's delivery the plugin fulfils (its own, or an exchange's or a claim's replacement), as the booking reads it
 * under the task's lock: the lastmile option that ships it, its unfulfilled items, and the order's live fulfillments of
 * its lines with the booking each holds.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { isLastmileProviderId, optionKindOf } from "../../contracts/fulfillment-options"
import { readFulfillmentData, readShippingMethodData } from "../../contracts/plugin-data"
import { orderName, replacementUnit } from "../delivery-unit"
import type { OrderDeliveryRead } from "../booking-read"
import { readOrderReplacements } from "./read-replacements"
import { isCancelled, orderLines, present, quantityOf, readOrder } from "./read-order"

type Fulfillment = { id: string; canceled_at?: unknown; data?: unknown; items?: { line_item_id?: string | null }[] }

/** The order's delivery (its own, or a replacement's): the lastmile option that ships it, and its items. */
export async function readOrderDelivery(
  container: MedusaContainer,
  target: { order_id: string; reference_id?: string }
): Promise<OrderDeliveryRead> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [order, replacements] = await Promise.all([
    readOrder(container, target.order_id),
    readOrderReplacements(container, target.order_id),
  ])
  if (!order || isCancelled(order)) {
    return { skip: order ? "cancelled" : "not_lastmile" }
  }
  const row = replacements.find((r) => r.id === target.reference_id)
  if (target.reference_id && (!row || row.cancelled)) {
    return { skip: row ? "cancelled" : "not_lastmile" }
  }
  const method = present<{ shipping_option_id?: string | null; data?: unknown }>(order.shipping_methods).find((m) =>
    readShippingMethodData(m.data)
  )
  const optionIds = row?.option_ids ?? (method?.shipping_option_id ? [method.shipping_option_id] : [])
  // The first of these options that is a lastmile delivery or collection.
  const { data: options } = optionIds.length
    ? await query.graph({
        entity: "shipping_option",
        fields: ["id", "provider_id", "data", "shipping_profile_id"],
        filters: { id: optionIds },
      })
    : { data: [] }
  const option = options.find((o: { provider_id?: string | null; data?: { id?: unknown } | null }) => {
    const kind = isLastmileProviderId(o.provider_id) ? optionKindOf(o.data?.id) : null
    return kind === "delivery" || kind === "collection"
  })
  if (!option) {
    return { skip: "not_lastmile" }
  }
  // The order's own delivery carries its own items; a replacement's are booked as its own delivery.
  const replaced = new Set(replacements.flatMap((r) => r.item_ids))
  const lineIds = row?.item_ids ?? orderLines(order).flatMap((i) => (replaced.has(i.id) ? [] : [i.id]))
  const profileId: string | null = option.shipping_profile_id ?? null
  return {
    ...(row
      ? replacementUnit(order, row)
      : { origin: "order", merchantOrderId: order.id, merchantOrderName: orderName(order) }),
    order_id: order.id,
    shipping_option_id: option.id,
    // As checkout quoted them: Medusa prices an option with the cart's items of its shipping profile, and refuses
    // to fulfil an item of another profile.
    items: orderLines(order).flatMap((item) => {
      const ships =
        lineIds.includes(item.id) &&
        item.requires_shipping !== false &&
        (!profileId || !item.variant?.product || item.variant.product.shipping_profile?.id === profileId)
      const quantity = ships ? quantityOf(item.quantity) - quantityOf(item.detail?.fulfilled_quantity ?? 0) : 0
      return quantity > 0 ? [{ id: item.id, quantity }] : []
    }),
    live: present<Fulfillment>(order.fulfillments)
      .filter(
        (f) => !f.canceled_at && present(f.items).some((i) => !!i.line_item_id && lineIds.includes(i.line_item_id))
      )
      .map((f) => ({ id: f.id, data: f.data, booking: readFulfillmentData(f.data) })),
    // Read by the booking when one of these waits for its booking (`readFulfillmentBooking`).
    pending: null,
  }
}
