/**
 * What the booking workflow reads of Medusa for each kind of task (shapes in `../booking-read.ts`): a lastmile
 * fulfillment just created, the order's delivery the plugin fulfils, or a return on the lastmile return option; an order's exchanges and claims.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import {
  RETURN_OPTION_ID,
  buildFulfillmentOptions,
  isLastmileProviderId,
  optionKindOf,
  quoteDeliveryTypeOf,
} from "../../contracts/fulfillment-options"
import { readFulfillmentData, readShippingMethodData } from "../../contracts/plugin-data"
import { deliveryUnitOf, fulfillmentLines, orderName, replacementUnit, type ReplacementRef } from "../delivery-unit"
import { storeExternalId, toStoreView } from "../../store/store-identity"
import { readPickupSettings } from "../../collection/pickup-settings"
import { majorToMinor } from "../../money/money"
import { refusal } from "../booking-outcome"
import type { FulfillmentIdentity, OrderDeliveryRead, ReturnRead } from "../booking-read"
import { isCancelled, isoOf, orderLines, present, quantityOf, readAddress, readOrder } from "./read-order"

// ------------------------------------------------------------ a fulfillment Medusa created

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
      // The store's closed dates: a readiness on one moves to its next open day (decision 65).
      closedDates:
        option.kind === "collection" ? readPickupSettings(optionLocation?.address?.metadata).closed_dates : [],
      wish: chosen
        ? { rateCode: chosen.rateCode, name: chosen.rateName, chosen: chosen.rateChosen === true }
        : undefined,
      currency: order.currency_code,
      // The shopper's checkout price guards their delivery only: a replacement's price is the merchant's call.
      paidMinor: Number.isFinite(paid) && unit.origin === "order" ? majorToMinor(paid, order.currency_code) : null,
      // The shopper's words go with their own delivery only, and only as the policy allows (decision 63).
      deliveryNote: option.kind === "delivery" && unit.origin === "order" ? (chosen?.deliveryNote ?? null) : null,
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

// ------------------------------------------------------------ an order's delivery the plugin fulfils

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

// ------------------------------------------------------------ a return

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

/**
 * An order's exchanges and claims, as the booking reads them: each replacement's own items (booked as its own delivery,
 * never with the order's) and the options its outbound methods use; and the return of one's inbound items.
 */
export interface OrderReplacement extends ReplacementRef {
  cancelled: boolean
  /** When it was created: a replacement's booking latency is measured from here. */
  created_at: string | Date | null
  /** The shipping options of its outbound methods. */
  option_ids: string[]
}

interface ReplacementRow {
  id: string
  canceled_at?: unknown
  created_at?: string | Date | null
  additional_items?: ({ item_id?: string | null } | null)[] | null
  shipping_methods?: ({ shipping_option_id?: string | null } | null)[] | null
}

const FIELDS = ["id", "canceled_at", "created_at", "additional_items.item_id", "shipping_methods.shipping_option_id"]

export async function readOrderReplacements(container: MedusaContainer, orderId: string): Promise<OrderReplacement[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [exchanges, claims] = await Promise.all([
    query.graph({ entity: "order_exchange", fields: FIELDS, filters: { order_id: orderId } }),
    query.graph({ entity: "order_claim", fields: FIELDS, filters: { order_id: orderId } }),
  ])
  const read = (kind: OrderReplacement["kind"]) => (row: ReplacementRow) => ({
    id: row.id,
    kind,
    cancelled: !!row.canceled_at,
    created_at: row.created_at ?? null,
    item_ids: (row.additional_items ?? []).flatMap((i) => (i?.item_id ? [i.item_id] : [])),
    option_ids: (row.shipping_methods ?? []).flatMap((m) => (m?.shipping_option_id ? [m.shipping_option_id] : [])),
  })
  return [
    ...(exchanges.data as ReplacementRow[]).map(read("exchange")),
    ...(claims.data as ReplacementRow[]).map(read("claim")),
  ]
}

/** The return of an exchange's or a claim's inbound items, if it has one. */
export async function replacementReturnId(container: MedusaContainer, referenceId: string): Promise<string | null> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: referenceId.startsWith("claim") ? "order_claim" : "order_exchange",
    fields: ["id", "return_id"],
    filters: { id: referenceId },
  })
  return data[0]?.return_id ?? null
}
