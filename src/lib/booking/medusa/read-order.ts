/**
 * The order as the booking reads it, the order a route names (a 404 for an id that names none, rather than an empty
 * answer), and the recent orders the booking job reconciles.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { medusaAddressSchema, methodKindOf } from "../../contracts/plugin-data"
import type { MedusaAddressLike, MedusaLineLike } from "../../checkout/quote-request"
import type { DeliveryNoteView, TaskView } from "../../contracts/admin-api"
import { type OrderCharge, type TaskViewRow, deliveryNoteView, orderChargesOf, orderTaskViews } from "../task-view"

export async function assertOrderExists(container: MedusaContainer, orderId: string): Promise<void> {
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order", fields: ["id"], filters: { id: orderId } })
  if (!data.length) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order with id: ${orderId} was not found`)
  }
}

/** The order, as every kind of booking reads it. Order item quantities are computed: only "items.*" returns them. */
const ORDER_FIELDS = [
  "id",
  "display_id",
  "status",
  "canceled_at",
  "created_at",
  "currency_code",
  "email",
  "customer.email",
  "shipping_address.*",
  "items.*",
  "items.detail.fulfilled_quantity",
  "items.variant.product.shipping_profile.id",
  "shipping_methods.id",
  "shipping_methods.shipping_option_id",
  "shipping_methods.amount",
  "shipping_methods.data",
  "fulfillments.id",
  "fulfillments.canceled_at",
  "fulfillments.data",
  "fulfillments.items.line_item_id",
]

export async function readOrder(container: MedusaContainer, orderId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ORDER_FIELDS, filters: { id: orderId } })
  return data[0]
}

export type OrderRead = NonNullable<Awaited<ReturnType<typeof readOrder>>>

/** A list without the nulls query may type it with. */
export const present = <T>(list: (T | null)[] | null | undefined): T[] =>
  (list ?? []).flatMap((item) => (item ? [item] : []))
export type OrderLine = MedusaLineLike & { id: string; detail?: { fulfilled_quantity?: unknown } | null }
export const orderLines = (order: OrderRead) => present<OrderLine>(order.items)
export const isCancelled = (row: { status?: unknown; canceled_at?: unknown }) =>
  !!row.canceled_at || row.status === "canceled"
export const readAddress = (value: unknown): MedusaAddressLike | null =>
  medusaAddressSchema.safeParse(value).data ?? null
export const quantityOf = (quantity: unknown) => MathBN.convert(quantity as number).toNumber()

export function isoOf(value: unknown): string | null {
  const date = value instanceof Date ? value : typeof value === "string" ? new Date(value) : null
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null
}

/** The shopper's note to the courier on the order's delivery, beside its rows: what became of it (decision 63). */
export async function readDeliveryNoteView(
  container: MedusaContainer,
  orderId: string,
  rows: TaskViewRow[],
  sendEnabled: boolean
): Promise<DeliveryNoteView | null> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["id", "shipping_methods.data"],
    filters: { id: orderId },
  })
  return deliveryNoteView(data[0]?.shipping_methods, rows, sendEnabled)
}

/** Orders created in `[since, before]`, not cancelled, with a lastmile shipping method: newest first, at most 500. */
export async function recentLastmileOrders(container: MedusaContainer, since: Date, before: Date): Promise<string[]> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["id", "shipping_methods.data"],
    filters: { created_at: { $gte: since, $lte: before }, canceled_at: null },
    pagination: { take: 500, order: { created_at: "DESC" } },
  })
  return data.flatMap((o: { id: string; shipping_methods?: ({ data?: unknown } | null)[] | null }) =>
    (o.shipping_methods ?? []).some((m) => methodKindOf(m?.data) !== null) ? [o.id] : []
  )
}

/** Task rows as the admin shows them, each order's own delivery beside what the order was charged for it. */
export async function readTaskViews(container: MedusaContainer, rows: TaskViewRow[]): Promise<TaskView[]> {
  const orderIds = [...new Set(rows.map((row) => row.order_id))]
  if (!orderIds.length) {
    return []
  }
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: [
      "id",
      "currency_code",
      "shipping_methods.amount",
      "shipping_methods.data",
      "shipping_methods.shipping_option_id",
    ],
    filters: { id: orderIds },
  })
  const charges = new Map<string, OrderCharge[]>(data.map((order) => [order.id, orderChargesOf(order)]))
  return rows.flatMap((row) => orderTaskViews([row], charges.get(row.order_id) ?? []))
}
