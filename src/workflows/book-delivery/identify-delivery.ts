/**
 * Reads a lastmile fulfillment Medusa just created, with its order, and
 * works out what to book: which delivery of the order it is (its reference
 * at the service), what the courier carries, from where to where, and which
 * rate the shopper chose. Only reads: the booking workflow takes that
 * delivery's lock and writes.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import type { BookingSubject } from "../../lib/booking/book-at-service"
import {
  isLastmileProviderId,
  type LastmileFulfillmentOption,
  buildFulfillmentOptions,
  quoteDeliveryTypeOf,
} from "../../lib/contracts/fulfillment-options"
import {
  type LastmileStoreView,
  medusaAddressSchema,
  readFulfillmentData,
  readShippingMethodData,
} from "../../lib/contracts/plugin-data"
import { type DeliveryUnit, deliveryUnitOf, fulfillmentLines } from "../../lib/booking/delivery-unit"
import type { MedusaAddressLike, MedusaLineLike } from "../../lib/checkout/quote-request"
import { storeExternalId, toStoreView } from "../../lib/store/store-identity"
import { readOrderReplacements } from "../../lib/booking/medusa/read-replacements"
import { majorToMinor } from "../../lib/money/money"

/** What the booking needs, read once from Medusa (JSON, as step results travel). */
export interface DeliveryPlan {
  fulfillment_id: string
  order_id: string
  unit: DeliveryUnit
  subject: Omit<BookingSubject, "lookupFirst">
  /** What the fulfillment's public data shows besides the tracking. */
  shown: { kind: "delivery" | "collection"; rateName: string | null; store: LastmileStoreView | null }
}

export type DeliveryIdentity = { action: "skip"; reason: string } | ({ action: "book" } & DeliveryPlan)

interface FulfillmentRow {
  id: string
  provider_id?: string | null
  data?: unknown
  location_id?: string | null
  shipping_option_id?: string | null
  canceled_at?: unknown
  delivery_address?: unknown
  items?: ({ line_item_id?: string | null; quantity?: unknown } | null)[] | null
  order?: { id: string } | null
}

interface LocationRow {
  id: string
  name?: string | null
  address?: (MedusaAddressLike & { metadata?: Record<string, unknown> | null }) | null
}

interface OptionRow {
  id: string
  data?: Record<string, unknown> | null
  service_zone?: { fulfillment_set?: { location?: LocationRow | null } | null } | null
}

interface OrderRow {
  id: string
  display_id?: number | string | null
  status?: string | null
  canceled_at?: unknown
  currency_code: string
  email?: string | null
  customer?: { email?: string | null } | null
  shipping_address?: unknown
  items?: ((MedusaLineLike & { id: string }) | null)[] | null
  shipping_methods?: ({ shipping_option_id?: string | null; amount?: unknown; data?: unknown } | null)[] | null
}

export async function identifyDelivery(container: MedusaContainer, fulfillmentId: string): Promise<DeliveryIdentity> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
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
    filters: { id: fulfillmentId },
  })
  const fulfillment = fulfillments[0] as FulfillmentRow | undefined
  if (!fulfillment || !isLastmileProviderId(fulfillment.provider_id)) {
    return { action: "skip", reason: "not a lastmile fulfillment" }
  }
  if (fulfillment.canceled_at || readFulfillmentData(fulfillment.data)) {
    return { action: "skip", reason: "cancelled, or booked already" }
  }
  const orderId = fulfillment.order?.id
  const connection = module.connection()
  if (!orderId || !connection) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      orderId
        ? "Lastmile booking needs attention: the lastmile provider is not configured in medusa-config."
        : "Lastmile books fulfillments of orders; this one belongs to no order."
    )
  }
  const options = buildFulfillmentOptions(connection.options.deliveryTypes)
  const [optionRows, orders, replacements, locations, [orderTask]] = await Promise.all([
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
    query.graph({
      entity: "order",
      fields: [
        "id",
        "display_id",
        "status",
        "canceled_at",
        "currency_code",
        "email",
        "customer.email",
        "shipping_address.*",
        // Order item quantities are computed: only "items.*" returns them.
        "items.*",
        "shipping_methods.shipping_option_id",
        "shipping_methods.amount",
        "shipping_methods.data",
      ],
      filters: { id: orderId },
    }),
    readOrderReplacements(container, orderId),
    query.graph({
      entity: "stock_location",
      fields: ["id", "name", "address.*"],
      filters: { id: fulfillment.location_id ?? "" },
    }),
    module.listLastmileTasks({ merchant_order_id: orderId }, { select: ["status"] }),
  ])
  const optionRow = optionRows.data[0] as OptionRow | undefined
  const option = options.find((o) => o.id === optionRow?.data?.id)
  const order = orders.data[0] as OrderRow | undefined
  if (!order) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  }
  if (!option || option.kind === "return") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      option
        ? "The lastmile return option books returns: choose a lastmile delivery or collection option to fulfil items."
        : `This shipping option's lastmile option (${JSON.stringify(optionRow?.data?.id ?? null)}) is not one the provider offers (check delivery_types).`
    )
  }
  if (order.canceled_at || order.status === "canceled") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Order ${order.id} is cancelled: nothing is booked for it.`)
  }

  const items = (fulfillment.items ?? []).flatMap((i) => (i ? [i] : []))
  const lineIds = [...new Set(items.flatMap((i) => (i.line_item_id ? [i.line_item_id] : [])))]
  const unit = deliveryUnitOf({
    order,
    lineIds,
    exchanges: replacements.filter((r) => r.kind === "exchange" && !r.cancelled),
    claims: replacements.filter((r) => r.kind === "claim" && !r.cancelled),
    orderDeliveryBooked: orderTask?.status === "booked",
  })
  const optionLocation = optionRow?.service_zone?.fulfillment_set?.location ?? null
  const from = (locations.data[0] as LocationRow | undefined) ?? optionLocation
  const method = unit.origin === "order" ? methodOf(order, fulfillment.shipping_option_id, option) : null
  const chosen = method ? readShippingMethodData(method.data) : null
  const deliveryType = quoteDeliveryTypeOf(option, connection.options.deliveryTypes[0])
  const merchantLocationId = option.kind === "collection" ? (storeExternalId(optionLocation) ?? null) : null
  const paid = method?.amount !== undefined && method?.amount !== null ? Number(method.amount) : NaN
  const subject: DeliveryPlan["subject"] = {
    direction: "delivery",
    option,
    deliveryType,
    merchantOrderId: unit.merchantOrderId,
    merchantOrderName: unit.merchantOrderName,
    customerAddress: readAddress(fulfillment.delivery_address) ?? readAddress(order.shipping_address),
    email: order.email ?? order.customer?.email ?? null,
    lines: fulfillmentLines(
      items.map((i) => ({ line_item_id: i.line_item_id, quantity: MathBN.convert(i.quantity as number).toNumber() })),
      (order.items ?? []).flatMap((i) => (i ? [i] : []))
    ),
    merchantAddress: from?.address ?? null,
    merchantLocationId,
    wish: chosen ? { rateCode: chosen.rateCode, name: chosen.rateName, chosen: chosen.rateChosen === true } : undefined,
    currency: order.currency_code,
    // The shopper's checkout price guards their delivery only: a replacement's price is the merchant's call.
    paidMinor: Number.isFinite(paid) && unit.origin === "order" ? majorToMinor(paid, order.currency_code) : null,
  }
  return {
    action: "book",
    fulfillment_id: fulfillment.id,
    order_id: order.id,
    unit,
    subject,
    shown: {
      kind: option.kind,
      rateName: chosen?.rateName ?? null,
      store: option.kind === "collection" ? toStoreView(optionLocation) : null,
    },
  }
}

/** The order's method this fulfillment ships: the one of its shipping option that holds the shopper's choice. */
function methodOf(order: OrderRow, shippingOptionId: string | null | undefined, option: LastmileFulfillmentOption) {
  const methods = (order.shipping_methods ?? []).flatMap((m) => (m ? [m] : []))
  const chosen = methods.filter((m) => readShippingMethodData(m.data))
  return (
    chosen.find((m) => m.shipping_option_id === shippingOptionId) ??
    chosen.find((m) => {
      const data = readShippingMethodData(m.data)
      return (data?.kind ?? (data?.optionId === option.id ? option.kind : null)) === option.kind
    }) ??
    null
  )
}

function readAddress(value: unknown): MedusaAddressLike | null {
  const parsed = medusaAddressSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}
