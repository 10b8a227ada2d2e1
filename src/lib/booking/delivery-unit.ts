/** Which delivery of an order a fulfillment is, and so its stable `merchantOrderId` (decision 2). */
import { createHash } from "node:crypto"
import type { MedusaLineLike } from "../checkout/quote-request"

export type DeliveryOrigin = "order" | "exchange" | "claim" | "part"

export interface DeliveryUnit {
  origin: DeliveryOrigin
  merchantOrderId: string
  /** The order name the courier sees. */
  merchantOrderName: string
}

/** An exchange's or a claim's replacement: `item_ids` are the line items it added to the order. */
export interface ReplacementRef {
  id: string
  kind: "exchange" | "claim"
  item_ids: string[]
}

type OrderRef = { id: string; display_id?: number | string | null }

export function orderName(order: OrderRef): string {
  return order.display_id !== undefined && order.display_id !== null ? `#${order.display_id}` : order.id
}

/** A replacement is a delivery of its own, under its exchange's or claim's id. */
export function replacementUnit(order: OrderRef, replacement: Omit<ReplacementRef, "item_ids">): DeliveryUnit {
  const name = `Replacement for ${orderName(order)}${replacement.kind === "claim" ? " (claim)" : ""}`
  return { origin: replacement.kind, merchantOrderId: replacement.id, merchantOrderName: name }
}

export function deliveryUnitOf(input: {
  order: OrderRef
  /** The order lines the fulfillment ships. */
  lineIds: string[]
  replacements: ReplacementRef[]
  /** Whether the order's own delivery is booked already. */
  orderDeliveryBooked: boolean
}): DeliveryUnit {
  const { order, lineIds, replacements } = input
  const name = orderName(order)
  const replacementItems = new Set(replacements.flatMap((r) => r.item_ids))
  if (lineIds.some((id) => !replacementItems.has(id)) && !input.orderDeliveryBooked) {
    return { origin: "order", merchantOrderId: order.id, merchantOrderName: name }
  }
  // An exchange's items before a claim's.
  const replacing = replacements.filter((r) => r.item_ids.some((id) => lineIds.includes(id)))
  const replacement = replacing.find((r) => r.kind === "exchange") ?? replacing[0]
  if (replacement) {
    return replacementUnit(order, replacement)
  }
  const digest = createHash("sha256")
    .update([...lineIds].sort().join(","))
    .digest("hex")
    .slice(0, 10)
  return { origin: "part", merchantOrderId: `${order.id}~${digest}`, merchantOrderName: `${name} (further items)` }
}

/**
 * The basket of a fulfillment, each line as its variant (an item's SKU may be an inventory item's). Medusa splits a
 * line into one item per inventory item, scaled by the kit, so a line counts the smallest, at most the line's own.
 */
export function fulfillmentLines(
  /** A fulfillment's items, as Medusa hands them (a quantity may be a BigNumber). */
  items: { line_item_id?: string | null; quantity?: number | string | { toString(): string } | null }[],
  orderItems: (MedusaLineLike & { id?: string | null })[]
): MedusaLineLike[] {
  const byLine = new Map<string, number>()
  for (const item of items) {
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
