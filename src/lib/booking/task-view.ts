/**
 * A task row as the order widget and the admin API show it: status, history, tracking and what the merchant can do,
 * with the service's text cleaned again (decision 29).
 */
import type { DeliveryNoteView, TaskCancellation, TaskHistoryEntry, TaskNotice, TaskView } from "../contracts/admin-api"
import { cleanDeliveryNote } from "../checkout/delivery-note"
import { taskLabel } from "./task-label"
import { checkLink, cleanText } from "../service-client"
import { methodKindOf, readShippingMethodData } from "../contracts/plugin-data"
import type { QuotedRate } from "../contracts/quoted-rate"
import { COLLECTION_RATE_CODE } from "../contracts/fulfillment-options"
import { merchantCollectionView, readCollectionRecord } from "../collection/collection-hold"

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

type Charged = NonNullable<TaskView["charged"]>

/** One lastmile method of an order as charged at checkout: what the merchant compares the booking with. */
export interface OrderCharge {
  shipping_option_id: string | null
  charged: Charged
}

/** The columns of a task row the view reads (the module's `LastmileTaskRow` has them all). */
export interface TaskViewRow {
  id: string
  kind: "delivery" | "return"
  origin: TaskView["origin"] | null
  name: string | null
  merchant_order_id: string
  status: TaskView["status"]
  task_id: string | null
  tracking_id: string | null
  tracking_url: string | null
  rate_code: string | null
  delivery_type: string | null
  merchant_location_id: string | null
  service_status: string | null
  tracking_state: TaskView["tracking_state"]
  unmapped_status: string | null
  attempts: number
  last_error: string | null
  next_attempt_at: Date | string | null
  booked_at: Date | string | null
  last_checked_at: Date | string | null
  fulfillment_id: string | null
  return_id: string | null
  notice: unknown
  cancellation: unknown
  status_history: unknown
  shipping_option_id: string | null
  order_id: string
  quoted_rate: unknown
  mode?: "delivery" | "collection" | "return" | null
  collection?: unknown
}

/** The order's lastmile methods as charged at checkout (`shipping_methods` as query reads them). */
export function orderChargesOf(order: {
  currency_code: string
  shipping_methods?: ({ amount?: unknown; data?: unknown; shipping_option_id?: string | null } | null)[] | null
}): OrderCharge[] {
  return (order.shipping_methods ?? []).flatMap((m) => {
    const method = m ? readShippingMethodData(m.data) : null
    const amount = Number(m?.amount)
    if (!m || !method || !Number.isFinite(amount)) {
      return []
    }
    const charged = {
      amount,
      currency_code: order.currency_code,
      rate_name: method.rateName ? cleanText(method.rateName) : null,
      estimate: method.fallback === true,
    }
    return [{ shipping_option_id: m.shipping_option_id ?? null, charged }]
  })
}

/** An order's task rows as shown: the order's own delivery beside what its method charged (its shipping option's). */
export function orderTaskViews(rows: TaskViewRow[], charges: OrderCharge[], now: Date = new Date()): TaskView[] {
  return rows.map((t) => toTaskView(t, t.origin === "order" || !t.origin ? chargedFor(t, charges) : null, now))
}

function chargedFor(task: TaskViewRow, charges: OrderCharge[]): Charged | null {
  if (task.kind !== "delivery") {
    return null
  }
  return (charges.find((c) => c.shipping_option_id === task.shipping_option_id) ?? charges[0])?.charged ?? null
}

/** Text a row holds from the service (written before its answers were cleaned, or in an error), as shown. */
const text = (value: string | null) => (value === null ? null : cleanText(value))
const link = (value: string | null) => {
  const checked = value === null ? null : checkLink(value)
  return checked?.ok ? checked.href : null
}

export function toTaskView(t: TaskViewRow, charged: TaskView["charged"] = null, now: Date = new Date()): TaskView {
  const origin = t.origin ?? (t.kind === "return" ? "return" : "order")
  const collection = isCollection(t)
    ? merchantCollectionView(
        readCollectionRecord(t.collection),
        { status: t.status, tracking_state: t.tracking_state, cancelled: !!t.cancellation },
        now
      )
    : null
  const booked: QuotedRate | null = t.status === "booked" ? quotedRate(t.quoted_rate) : null
  return {
    id: t.id,
    kind: t.kind,
    origin,
    label: taskLabel(origin),
    name: t.name,
    merchant_order_id: t.merchant_order_id,
    status: t.status,
    task_id: t.task_id,
    tracking_id: text(t.tracking_id),
    tracking_url: link(t.tracking_url),
    rate_code: t.rate_code,
    delivery_type: t.delivery_type,
    merchant_location_id: t.merchant_location_id,
    service_status: text(t.service_status),
    tracking_state: t.tracking_state,
    unmapped_status: text(t.unmapped_status),
    attempts: t.attempts,
    last_error: text(t.last_error),
    next_attempt_at: iso(t.next_attempt_at),
    booked_at: iso(t.booked_at),
    last_checked_at: iso(t.last_checked_at),
    fulfillment_id: t.fulfillment_id,
    return_id: t.return_id,
    // The row's JSON columns hold what the plugin wrote there: these shapes.
    notice: (t.notice as TaskNotice | null) ?? null,
    cancellation: (t.cancellation as TaskCancellation | null) ?? null,
    cancel_at_service:
      t.status === "booked" && !t.cancellation && t.tracking_state !== "delivered" && t.tracking_state !== "cancelled",
    charged,
    booked_rate: booked
      ? {
          rate_code: booked.rate_code,
          name: booked.name === null ? null : cleanText(booked.name),
          amount: typeof booked.amount === "number" ? booked.amount : null,
          currency_code: booked.currency_code,
        }
      : null,
    collection,
    history: ((t.status_history as { entries?: TaskHistoryEntry[] } | null)?.entries ?? []).map((entry) => ({
      ...entry,
      value: cleanText(entry.value),
      ...(entry.detail ? { detail: cleanText(entry.detail) } : {}),
    })),
  }
}

/** A collection's task: as its row says, else (rows written before it kept the mode) by its rate. */
function isCollection(t: Pick<TaskViewRow, "mode" | "kind" | "rate_code">): boolean {
  return t.mode ? t.mode === "collection" : t.kind === "delivery" && t.rate_code === COLLECTION_RATE_CODE
}

/** The row's `quoted_rate` as written at booking (a plain record; rows written before it have none). */
function quotedRate(value: unknown): QuotedRate | null {
  const rate = value && typeof value === "object" ? (value as Partial<QuotedRate>) : null
  return rate && typeof rate.rate_code === "string"
    ? {
        rate_code: rate.rate_code,
        name: typeof rate.name === "string" ? rate.name : null,
        amount: typeof rate.amount === "number" ? rate.amount : null,
        currency_code: typeof rate.currency_code === "string" ? rate.currency_code : null,
        window: null,
        co2_savings: null,
        quoted_at: typeof rate.quoted_at === "string" ? rate.quoted_at : "",
      }
    : null
}

/**
 * The shopper's note on the order's delivery method, and what its booking did with it (the order's own delivery's row:
 * `quoted_rate.delivery_note`). Null without a note.
 */
export function deliveryNoteView(
  methods: readonly ({ data?: unknown } | null)[] | null | undefined,
  rows: Pick<TaskViewRow, "kind" | "origin" | "status" | "quoted_rate">[],
  sendEnabled: boolean
): DeliveryNoteView | null {
  const method = [...(methods ?? [])].reverse().find((m) => methodKindOf(m?.data) === "delivery")
  const raw = readShippingMethodData(method?.data)?.deliveryNote
  // Written through the plugin's check; cleaned again for a row written by hand or by an older version.
  const text = raw ? cleanDeliveryNote(raw) : ""
  if (!text) {
    return null
  }
  const own = rows.find((row) => row.kind === "delivery" && (row.origin === "order" || !row.origin))
  const said = (own?.quoted_rate as { delivery_note?: unknown } | null | undefined)?.delivery_note
  const to_service = own?.status !== "booked" ? "not_booked" : said === "sent" || said === "refused" ? said : "not_sent"
  return { text, to_service, send_enabled: sendEnabled }
}
