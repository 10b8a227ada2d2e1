/**
 * Which delivery of an order a fulfillment is (ARCHITECTURE.md, decision 2):
 * the service de-duplicates on `merchantOrderId`, so each delivery of an
 * order has its own stable reference, found again by a lookup after a lost
 * answer. The order's own delivery is the order id; a replacement is its
 * exchange's or claim's id; items the merchant ships separately once the
 * order's delivery is booked (added by an edit, or a second part) are the
 * order id with a digest of their lines, so the same items always get the
 * same reference. Also the basket: which lines and quantities a fulfillment
 * ships.
 */
import { createHash } from "node:crypto"
import type { MedusaLineLike } from "../checkout/quote-request"

export type DeliveryOrigin = "order" | "exchange" | "claim" | "part"

export interface DeliveryUnit {
  origin: DeliveryOrigin
  merchantOrderId: string
  /** The order name the courier sees. */
  merchantOrderName: string
}

export interface ReplacementRef {
  id: string
  /** The line items it added to the order. */
  item_ids: string[]
}

export function orderName(order: { id: string; display_id?: number | string | null }): string {
  return order.display_id !== undefined && order.display_id !== null ? `#${order.display_id}` : order.id
}

export function deliveryUnitOf(input: {
  order: { id: string; display_id?: number | string | null }
  /** The order lines the fulfillment ships. */
  lineIds: string[]
  exchanges: ReplacementRef[]
  claims: ReplacementRef[]
  /** Whether the order's own delivery is booked already. */
  orderDeliveryBooked: boolean
}): DeliveryUnit {
  const { order, lineIds } = input
  const name = orderName(order)
  const replacing = (refs: ReplacementRef[]) => refs.find((r) => r.item_ids.some((id) => lineIds.includes(id)))
  const exchange = replacing(input.exchanges)
  const claim = replacing(input.claims)
  const replacementItems = new Set([...input.exchanges, ...input.claims].flatMap((r) => r.item_ids))
  const ownItems = lineIds.filter((id) => !replacementItems.has(id))
  if (ownItems.length && !input.orderDeliveryBooked) {
    return { origin: "order", merchantOrderId: order.id, merchantOrderName: name }
  }
  if (exchange) {
    return { origin: "exchange", merchantOrderId: exchange.id, merchantOrderName: `Replacement for ${name}` }
  }
  if (claim) {
    return { origin: "claim", merchantOrderId: claim.id, merchantOrderName: `Replacement for ${name} (claim)` }
  }
  const digest = createHash("sha256")
    .update([...lineIds].sort().join(","))
    .digest("hex")
    .slice(0, 10)
  return { origin: "part", merchantOrderId: `${order.id}~${digest}`, merchantOrderName: `${name} (further items)` }
}

/** An item of a fulfillment, as Medusa hands it (its quantity may be a BigNumber). */
export interface FulfillmentItemLike {
  line_item_id?: string | null
  quantity?: number | string | { toString(): string } | null
}

/**
 * The basket of a fulfillment: the order lines it covers, each as its
 * variant (never the item's SKU, which may be an inventory item's). Medusa
 * splits a line into one item per inventory item, scaled by the kit's
 * quantities, so a line's quantity is the smallest of its items', never more
 * than the line's own.
 */
export function fulfillmentLines(
  items: FulfillmentItemLike[] | null | undefined,
  orderItems: (MedusaLineLike & { id?: string | null })[]
): MedusaLineLike[] {
  const byLine = new Map<string, number>()
  for (const item of items ?? []) {
    if (item.line_item_id) {
      const quantity = Number(item.quantity?.toString())
      const held = byLine.get(item.line_item_id)
      byLine.set(item.line_item_id, held === undefined ? quantity : Math.min(held, quantity))
    }
  }
  return orderItems.flatMap((line) => {
    const quantity = line.id ? byLine.get(line.id) : undefined
    return quantity === undefined ? [] : [{ ...line, quantity: Math.min(quantity, Number(line.quantity?.toString())) }]
  })
}
