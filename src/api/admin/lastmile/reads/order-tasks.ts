/**
 * The lastmile tasks of an order as the order widget shows them: its own
 * delivery, each replacement's, items shipped separately, and each return,
 * oldest first, each with its status, history, tracking and what the
 * merchant can do about it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../../../../modules/lastmile"
import type { LastmileModuleService, TaskRow } from "../../../../modules/lastmile/service"
import type { TaskCancellation, TaskHistoryEntry, TaskNotice, TaskView } from "../../../../lib/contracts/admin-api"
import { readShippingMethodData } from "../../../../lib/contracts/plugin-data"
import type { QuotedRate } from "../../../../lib/contracts/quoted-rate"
import { taskLabel } from "../../../../lib/booking/task-label"
import { checkLink, cleanText } from "../../../../lib/service-client"

const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null)

type Charged = NonNullable<TaskView["charged"]>

export async function orderTasks(container: MedusaContainer, orderId: string): Promise<TaskView[]> {
  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const [tasks, charges] = await Promise.all([
    module.listLastmileTasks({ order_id: orderId }, { order: { created_at: "ASC" } }),
    orderCharges(container, orderId),
  ])
  return tasks.map((t) => toTaskView(t, t.origin === "order" || !t.origin ? chargedFor(t, charges) : null))
}

/** The order's lastmile methods as charged at checkout: what the merchant compares the booking with. */
async function orderCharges(
  container: MedusaContainer,
  orderId: string
): Promise<{ shipping_option_id: string | null; charged: Charged }[]> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: [
      "currency_code",
      "shipping_methods.amount",
      "shipping_methods.data",
      "shipping_methods.shipping_option_id",
      "shipping_methods.created_at",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as
    | {
        currency_code: string
        shipping_methods?: ({ amount?: unknown; data?: unknown; shipping_option_id?: string | null } | null)[]
      }
    | undefined
  return (order?.shipping_methods ?? []).flatMap((m) => {
    const method = m ? readShippingMethodData(m.data) : null
    const amount = Number(m?.amount)
    if (!m || !method || !Number.isFinite(amount)) {
      return []
    }
    return [
      {
        shipping_option_id: m.shipping_option_id ?? null,
        charged: {
          amount,
          currency_code: order!.currency_code,
          rate_name: method.rateName ? cleanText(method.rateName) : null,
          estimate: method.fallback === true,
        },
      },
    ]
  })
}

/** The order's own delivery was charged by the method of its shipping option (the checkout's first lastmile one). */
function chargedFor(task: TaskRow, charges: { shipping_option_id: string | null; charged: Charged }[]): Charged | null {
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

export function toTaskView(t: TaskRow, charged: TaskView["charged"] = null): TaskView {
  const origin = t.origin ?? (t.kind === "return" ? "return" : "order")
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
    history: ((t.status_history as { entries?: TaskHistoryEntry[] } | null)?.entries ?? []).map((entry) => ({
      ...entry,
      value: cleanText(entry.value),
      ...(entry.detail ? { detail: cleanText(entry.detail) } : {}),
    })),
  }
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
