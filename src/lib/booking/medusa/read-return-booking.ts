/** A return on the lastmile return option as the booking reads it, whichever road made it (storefront, dashboard, exchange, claim). */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { RETURN_OPTION_ID, buildFulfillmentOptions, isLastmileProviderId } from "../../contracts/fulfillment-options"
import { readFulfillmentData } from "../../contracts/plugin-data"
import { orderName } from "../delivery-unit"
import type { ReturnRead } from "../booking-read"
import { isCancelled, isoOf, orderLines, present, quantityOf, readAddress, readOrder } from "./read-order"

/** `deliveryTypes`: the provider's, or null when it is not configured (nothing is then the plugin's to book). */
export async function readReturnBooking(
  container: MedusaContainer,
  returnId: string,
  deliveryTypes: string[] | null
): Promise<ReturnRead> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "return",
    fields: [
      "id",
      "order_id",
      "status",
      "canceled_at",
      "created_at",
      "location_id",
      "items.item_id",
      "items.quantity",
      "fulfillments.id",
      "fulfillments.provider_id",
      "fulfillments.canceled_at",
      "fulfillments.data",
      "fulfillments.location_id",
      "fulfillments.shipping_option_id",
    ],
    filters: { id: returnId },
  })
  const orderReturn = data[0]
  const fulfillment = (orderReturn?.fulfillments ?? []).find(
    (f: { provider_id?: string | null; canceled_at?: unknown } | null) =>
      !!f && isLastmileProviderId(f.provider_id) && !f.canceled_at
  )
  if (!orderReturn || !fulfillment || !deliveryTypes) {
    return { skip: "not_lastmile" }
  }
  const locationId: string | null = fulfillment.location_id ?? orderReturn.location_id ?? null
  const [order, { data: locations }] = await Promise.all([
    readOrder(container, orderReturn.order_id),
    query.graph({ entity: "stock_location", fields: ["id", "address.*"], filters: { id: locationId ?? "" } }),
  ])
  if (!order) {
    return { skip: "not_lastmile" }
  }
  const lines = orderLines(order)
  return {
    cancelled: isCancelled(orderReturn),
    held: readFulfillmentData(fulfillment.data),
    origin: "return",
    order_id: order.id,
    fulfillment_id: fulfillment.id,
    subject: {
      direction: "return",
      option: buildFulfillmentOptions(deliveryTypes).find((o) => o.id === RETURN_OPTION_ID)!,
      deliveryType: deliveryTypes[0],
      merchantOrderId: orderReturn.id,
      merchantOrderName: `${orderName(order)} return`,
      customerAddress: readAddress(order.shipping_address),
      email: order.email ?? order.customer?.email ?? null,
      // The return's own items (an exchange's or a claim's fulfillment lists the whole order), each as its variant.
      lines: present<{ item_id: string; quantity: unknown }>(orderReturn.items).flatMap(({ item_id, quantity }) => {
        const item = lines.find((i) => i.id === item_id)
        return item
          ? [{ variant_id: item.variant_id, variant_sku: item.variant_sku, quantity: quantityOf(quantity) }]
          : []
      }),
      // Where Medusa sends it back: the fulfillment's location (from the option's zone), else the return's own.
      merchantAddress: readAddress(locations[0]?.address),
      currency: order.currency_code,
    },
    shown: { kind: "return", rateName: null, window: null, store: null },
    context: {
      mode: "return",
      shipping_option_id: fulfillment.shipping_option_id ?? null,
      stock_location_id: locationId,
      placed_at: isoOf(orderReturn.created_at),
    },
  }
}
