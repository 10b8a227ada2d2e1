/**
 * The events delivery insights send the Analytics Module (decision 54): codes, amounts and windows, ids hashed
 * (`analyticsId`), never the shopper's address, phone or email.
 */
import { createHash } from "node:crypto"
import type { CountedCart } from "./offer-tally"
import { type InsightTaskRow, punctuality, taskFacts } from "./task-facts"

export const INSIGHT_EVENTS = {
  offered: "lastmile_options_offered",
  chosen: "lastmile_option_chosen",
  booked: "lastmile_task_booked",
  delivered: "lastmile_parcel_delivered",
  collected: "lastmile_parcel_collected",
} as const

export type InsightEventName = (typeof INSIGHT_EVENTS)[keyof typeof INSIGHT_EVENTS]

export interface InsightEvent {
  event: InsightEventName
  /** Who it is about: the order's customer (hashed), when known. */
  actor_id?: string
  /** What it is about: the order, or the cart while offers are made (hashed). */
  group?: { type: "order" | "cart"; id: string }
  properties: Record<string, unknown>
}

/**
 * How an id of the shopper's (a cart, an order, a customer) or of a task goes to the Analytics Module: a SHA-256
 * digest, stable so one order's events join up, and one a merchant can compute from their own ids to find the
 * order, but from which no one can read the id that opens it (the ids are random).
 */
export function analyticsId(id: string): string {
  return createHash("sha256").update(`medusa-plugin-lastmile:${id}`).digest("hex").slice(0, 32)
}

/** One event per cart and day: the options it was offered, or not and why, as counted when it was first counted. */
export function offeredEvents(carts: CountedCart[]): InsightEvent[] {
  return carts.map((cart) => ({
    event: INSIGHT_EVENTS.offered,
    group: { type: "cart", id: analyticsId(cart.cart_id) },
    properties: {
      day: cart.day,
      offered: cart.options.filter((o) => o.offered).length,
      unavailable: cart.options.filter((o) => !o.offered).length,
      options: cart.options.map((o) => ({
        fulfillment_option: o.fulfillment_option,
        stock_location_id: o.stock_location_id,
        available: o.offered,
        unavailable_reason: o.reason,
      })),
    },
  }))
}

export interface OrderChoice {
  shipping_option_id: string
  name: string
  fulfillment_option: string
  stock_location_id: string | null
}

/** One event per lastmile option an order was placed with. */
export function chosenEvents(
  order: { id: string; customer_id?: string | null },
  choices: OrderChoice[]
): InsightEvent[] {
  return choices.map((c) => ({
    event: INSIGHT_EVENTS.chosen,
    ...(order.customer_id ? { actor_id: analyticsId(order.customer_id) } : {}),
    group: { type: "order", id: analyticsId(order.id) },
    properties: {
      shipping_option_id: c.shipping_option_id,
      shipping_option_name: c.name,
      fulfillment_option: c.fulfillment_option,
      kind: c.fulfillment_option === "lastmile-collection" ? "collection" : "delivery",
      stock_location_id: c.stock_location_id,
    },
  }))
}

/** A task row as the events read it: insights' columns and the order it belongs to. */
export type EventTaskRow = InsightTaskRow & { order_id: string; shipping_option_id: string | null }

function rateProperties(row: EventTaskRow): Record<string, unknown> {
  const rate = (row.quoted_rate ?? {}) as Record<string, unknown>
  const window = (rate.window ?? null) as { from?: unknown; to?: unknown } | null
  return {
    task_row_id: analyticsId(row.id),
    mode: taskFacts(row)?.mode ?? null,
    shipping_option_id: row.shipping_option_id,
    stock_location_id: row.stock_location_id,
    rate_code: row.rate_code,
    amount: typeof rate.amount === "number" ? rate.amount : null,
    currency_code: typeof rate.currency_code === "string" ? rate.currency_code : null,
    window_from: typeof window?.from === "string" ? window.from : null,
    window_to: typeof window?.to === "string" ? window.to : null,
    co2_savings: typeof rate.co2_savings === "number" ? rate.co2_savings : null,
  }
}

/** A delivery or collection booked (not a return). */
export function bookedEvent(row: EventTaskRow): InsightEvent | null {
  const facts = taskFacts(row)
  if (!facts || facts.bookedAt === null) {
    return null
  }
  return {
    event: INSIGHT_EVENTS.booked,
    group: { type: "order", id: analyticsId(row.order_id) },
    properties: { ...rateProperties(row), placed_to_booked_ms: Math.max(0, facts.bookedAt - facts.placedAt) },
  }
}

/** A delivery delivered or a collection collected, placed against its window. */
export function arrivedEvent(row: EventTaskRow): InsightEvent | null {
  const facts = taskFacts(row)
  if (!facts || facts.deliveredAt === null) {
    return null
  }
  const when = facts.mode === "delivery" ? punctuality(facts.deliveredAt, facts.window) : null
  return {
    event: facts.mode === "collection" ? INSIGHT_EVENTS.collected : INSIGHT_EVENTS.delivered,
    group: { type: "order", id: analyticsId(row.order_id) },
    properties: {
      ...rateProperties(row),
      at: new Date(facts.deliveredAt).toISOString(),
      ...(when ? { punctuality: when } : {}),
      ...(when === "late" && facts.window
        ? { late_minutes: Math.round((facts.deliveredAt - facts.window.to) / 60_000) }
        : {}),
    },
  }
}
