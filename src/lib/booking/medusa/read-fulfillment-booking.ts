/**
 * A lastmile fulfillment Medusa just created, as the booking reads it (before the task's lock: which task it is decides
 * which lock): which delivery of its order it is (decision 2), and what it books.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { buildFulfillmentOptions, isLastmileProviderId, quoteDeliveryTypeOf } from "../../contracts/fulfillment-options"
import { readFulfillmentData, readShippingMethodData } from "../../contracts/plugin-data"
import { deliveryUnitOf, fulfillmentLines } from "../delivery-unit"
import { storeExternalId, toStoreView } from "../../store/store-identity"
import { majorToMinor } from "../../money/money"
import { refusal } from "../booking-outcome"
import type { FulfillmentIdentity } from "../booking-read"
import { readOrderReplacements } from "./read-replacements"
import { isCancelled, isoOf, orderLines, present, quantityOf, readAddress, readOrder } from "./read-order"

/** What the read needs of the plugin: the provider's delivery types (null when it is not configured), its rows. */
export interface FulfillmentReadContext {
  deliveryTypes: string[] | null
  rows: {
    /** Whether the order's own delivery is booked already (a later fulfillment then ships items apart). */
    orderDeliveryBooked(orderId: string): Promise<boolean>
  }
}

/** A lastmile fulfillment Medusa just created: which delivery of its order it is (decision 2), and what it books. */
export async function readFulfillmentBooking(
  container: MedusaContainer,
  id: string,
  plugin: FulfillmentReadContext
): Promise<FulfillmentIdentity> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: fulfillments } = await query.graph({
    entity: "fulfillment",
    fields: [
      "id",
      "provider_id",
      "data",
      "location_id",
      "shipping_option_id",
      "canceled_at",
      "delivery_address.*",
      "items.line_item_id",
      "items.quantity",
      "order.id",
    ],
    filters: { id },
  })
  const fulfillment = fulfillments[0]
  const live = fulfillment && isLastmileProviderId(fulfillment.provider_id) && !fulfillment.canceled_at
  if (!live || readFulfillmentData(fulfillment.data)) {
    return { action: "skip", reason: "not a lastmile fulfillment, cancelled, or booked already" }
  }
  const orderId: string | undefined = fulfillment.order?.id
  if (!orderId) {
    return { action: "refuse", reason: "Lastmile books fulfillments of orders; this one belongs to no order." }
  }
  const deliveryTypes = plugin.deliveryTypes
  if (!deliveryTypes) {
    return { action: "refuse", reason: refusal("the lastmile provider is not configured in medusa-config.").reason }
  }
  const [{ data: options }, order, replacements, { data: locations }, orderDeliveryBooked] = await Promise.all([
    query.graph({
      entity: "shipping_option",
      fields: [
        "id",
        "data",
        "service_zone.fulfillment_set.location.id",
        "service_zone.fulfillment_set.location.name",
        "service_zone.fulfillment_set.location.address.*",
      ],
      filters: { id: fulfillment.shipping_option_id ?? "" },
    }),
    readOrder(container, orderId),
    readOrderReplacements(container, orderId),
    query.graph({
      entity: "stock_location",
      fields: ["id", "name", "address.*"],
      filters: { id: fulfillment.location_id ?? "" },
    }),
    plugin.rows.orderDeliveryBooked(orderId),
  ])
  const optionRow = options[0]
  const option = buildFulfillmentOptions(deliveryTypes).find((o) => o.id === optionRow?.data?.id)
  if (!order) {
    return { action: "refuse", reason: `Order ${orderId} was not found` }
  }
  if (!option || option.kind === "return") {
    return {
      action: "refuse",
      reason: option
        ? "The lastmile return option books returns: choose a lastmile delivery or collection option to fulfil items."
        : `This shipping option's lastmile option (${JSON.stringify(optionRow?.data?.id ?? null)}) is not one the provider offers (check delivery_types).`,
    }
  }
  if (isCancelled(order)) {
    return { action: "refuse", reason: `Order ${order.id} is cancelled: nothing is booked for it.` }
  }

  const items = present<{ line_item_id?: string | null; quantity?: unknown }>(fulfillment.items)
  const unit = deliveryUnitOf({
    order,
    lineIds: [...new Set(items.flatMap((i) => (i.line_item_id ? [i.line_item_id] : [])))],
    replacements: replacements.filter((r) => !r.cancelled),
    orderDeliveryBooked,
  })
  const optionLocation = optionRow?.service_zone?.fulfillment_set?.location ?? null
  const from = locations[0] ?? optionLocation
  // The order's method this fulfillment ships: the one of its shipping option that holds the shopper's choice.
  const methods = present<{ shipping_option_id?: string | null; amount?: unknown; data?: unknown }>(
    unit.origin === "order" ? order.shipping_methods : []
  ).flatMap((m) => {
    const chosen = readShippingMethodData(m.data)
    return chosen ? [{ ...m, chosen }] : []
  })
  const method =
    methods.find((m) => m.shipping_option_id === fulfillment.shipping_option_id) ??
    methods.find((m) => (m.chosen.kind ?? (m.chosen.optionId === option.id ? option.kind : null)) === option.kind)
  const chosen = method?.chosen ?? null
  const paid = method?.amount !== undefined && method?.amount !== null ? Number(method.amount) : NaN
  return {
    action: "book",
    origin: unit.origin,
    order_id: order.id,
    fulfillment_id: fulfillment.id,
    subject: {
      direction: "delivery",
      option,
      deliveryType: quoteDeliveryTypeOf(option, deliveryTypes[0]),
      merchantOrderId: unit.merchantOrderId,
      merchantOrderName: unit.merchantOrderName,
      customerAddress: readAddress(fulfillment.delivery_address) ?? readAddress(order.shipping_address),
      email: order.email ?? order.customer?.email ?? null,
      lines: fulfillmentLines(
        items.map((i) => ({ line_item_id: i.line_item_id, quantity: quantityOf(i.quantity) })),
        orderLines(order)
      ),
      merchantAddress: from?.address ?? null,
      merchantLocationId: option.kind === "collection" ? (storeExternalId(optionLocation) ?? null) : null,
      wish: chosen
        ? { rateCode: chosen.rateCode, name: chosen.rateName, chosen: chosen.rateChosen === true }
        : undefined,
      currency: order.currency_code,
      // The shopper's checkout price guards their delivery only: a replacement's price is the merchant's call.
      paidMinor: Number.isFinite(paid) && unit.origin === "order" ? majorToMinor(paid, order.currency_code) : null,
    },
    shown: {
      kind: option.kind,
      rateName: chosen?.rateName ?? null,
      window: chosen?.window ?? null,
      store: option.kind === "collection" ? toStoreView(optionLocation) : null,
    },
    context: {
      mode: option.kind,
      shipping_option_id: fulfillment.shipping_option_id ?? null,
      // A collection is made ready at its store, whichever location the merchant fulfils from.
      stock_location_id: (option.kind === "collection" ? optionLocation?.id : from?.id) ?? null,
      placed_at: isoOf(replacements.find((r) => r.id === unit.merchantOrderId)?.created_at ?? order.created_at),
    },
  }
}
