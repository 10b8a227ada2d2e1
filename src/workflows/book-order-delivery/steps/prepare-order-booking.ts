/**
 * The plugin's own booking of an order's delivery (at placement), or of a
 * replacement (when an exchange or claim is confirmed), or again after a
 * failure (the retry job, the merchant's Retry): reads the order and decides
 * whether there is something to book and which items, under the delivery's
 * lock. The attempt's task row is written (status `booking`) before anything
 * else, so a crash leaves a trace the retry job finishes; the fulfillment it
 * then creates is booked by the plugin's `fulfillmentCreated` hook.
 */
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService, TaskRow } from "../../../modules/lastmile/service"
import {
  type BookingAdditionalData,
  isPendingBooking,
  readFulfillmentData,
  readShippingMethodData,
} from "../../../lib/contracts/plugin-data"
import { isLastmileProviderId, optionKindOf } from "../../../lib/contracts/fulfillment-options"
import { orderName } from "../../../lib/booking/delivery-unit"
import { readOrderReplacements } from "../../../lib/booking/medusa/read-replacements"
import type { BookingSkip } from "../../../lib/booking/booking-codes"

export type OrderBookingPlan =
  | { action: "skip"; outcome: BookingSkip }
  | {
      action: "book"
      task_row_id: string
      attempts: number
      fulfillment: {
        order_id: string
        shipping_option_id: string
        location_id?: string
        items: { id: string; quantity: number }[]
        additional_data: { lastmile: BookingAdditionalData }
      }
    }
  /** A fulfillment of these items Medusa created and nobody booked (a process stopped inside it): book that one. */
  | { action: "book_existing"; task_row_id: string; attempts: number; fulfillment_id: string }

/** The attempt the step started, for its compensation (none when it skipped). */
type Attempt = { task_row_id: string | null; attempts: number }

export interface PrepareOrderBookingInput {
  order_id: string
  /** An exchange's or a claim's id: book its replacement. Without it, the order's own delivery. */
  reference_id?: string
  /** The merchant asked for it: a task waiting for their decision is booked again too. */
  retry_needs_attention?: boolean
  /** The owner of the delivery's lock this run holds (passed on to the booking inside it). */
  lock_owner: string
}

/** The fields asked for below; loose enough for Medusa's generated query types (nullable lists and dates). */
interface OrderRow {
  id: string
  display_id?: number | string | null
  status?: unknown
  canceled_at?: unknown
  items?:
    | ({
        id: string
        quantity: BigNumberInput
        detail?: { fulfilled_quantity?: BigNumberInput | null } | null
        requires_shipping?: boolean | null
        variant?: { product?: { shipping_profile?: { id: string } | null } | null } | null
      } | null)[]
    | null
  shipping_methods?: ({ id: string; shipping_option_id?: string | null; data?: unknown } | null)[] | null
  fulfillments?:
    | ({
        id: string
        canceled_at?: unknown
        data?: unknown
        items?: ({ line_item_id?: string | null } | null)[] | null
      } | null)[]
    | null
}

export const prepareOrderBookingStepId = "lastmile-prepare-order-booking"

export const prepareOrderBookingStep = createStep(
  prepareOrderBookingStepId,
  async (input: PrepareOrderBookingInput, { container }) => {
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const skip = (outcome: BookingSkip) =>
      new StepResponse<OrderBookingPlan, Attempt>({ action: "skip", outcome }, { task_row_id: null, attempts: 0 })

    const read = await readDelivery(container, input)
    if ("skip" in read) {
      return skip(read.skip)
    }
    const { order, option, lineIds, origin } = read
    const reference = input.reference_id ?? order.id
    const name =
      origin === "order"
        ? orderName(order)
        : `Replacement for ${orderName(order)}${origin === "claim" ? " (claim)" : ""}`
    const task = await tasks.findOrCreateTask({
      kind: "delivery",
      origin,
      order_id: order.id,
      merchant_order_id: reference,
      name,
    })
    if (task.status === "booked") {
      return skip({ status: "already_booked" })
    }
    if (task.status === "cancelled") {
      return skip({ status: "cancelled" })
    }
    if (task.status === "needs_attention" && !input.retry_needs_attention) {
      return skip({ status: "needs_attention", reason: task.last_error ?? "waiting for the merchant" })
    }
    // A booking on a fulfillment that no row records (the process stopped in between, or the row was lost).
    if (await recordFromFulfillment(tasks, task, order, lineIds)) {
      return skip({ status: "already_booked" })
    }
    const pending = (order.fulfillments ?? []).find(
      (f) =>
        !!f &&
        !f.canceled_at &&
        isPendingBooking(f.data) &&
        (f.items ?? []).some((i) => !!i?.line_item_id && lineIds.includes(i.line_item_id))
    )
    if (pending) {
      const attempts = await tasks.startAttempt(task)
      return new StepResponse<OrderBookingPlan, Attempt>(
        { action: "book_existing", task_row_id: task.id, attempts, fulfillment_id: pending.id },
        { task_row_id: task.id, attempts }
      )
    }

    const profileId = option.profileId
    // The unfulfilled items the option ships, as checkout quoted them: Medusa prices an option with the
    // cart's items of its shipping profile, and refuses to fulfil an item of another profile.
    const items = (order.items ?? [])
      .flatMap((item) => (item ? [item] : []))
      .filter(
        (item) =>
          lineIds.includes(item.id) &&
          item.requires_shipping !== false &&
          (!profileId || !item.variant?.product || item.variant.product.shipping_profile?.id === profileId)
      )
      .map((item) => ({
        id: item.id,
        quantity:
          MathBN.convert(item.quantity).toNumber() - MathBN.convert(item.detail?.fulfilled_quantity ?? 0).toNumber(),
      }))
      .filter((item) => item.quantity > 0)
    if (!items.length) {
      // Without this the row would stay failed (or pending) and the job would read the order every minute.
      await tasks.recordNothingToBook(task)
      return skip({ status: "nothing_to_book" })
    }
    const attempts = await tasks.startAttempt(task)
    const plan: OrderBookingPlan = {
      action: "book",
      task_row_id: task.id,
      attempts,
      fulfillment: {
        order_id: order.id,
        shipping_option_id: option.id,
        items,
        additional_data: {
          lastmile: { lock_owner: input.lock_owner, first_attempt: attempts === 1, attempt: attempts },
        },
      },
    }
    return new StepResponse<OrderBookingPlan, Attempt>(plan, { task_row_id: task.id, attempts })
  },
  // An attempt that did not complete: retried after the backoff, unless the runner records why it needs the merchant.
  async (attempt, { container }) =>
    container.resolve<LastmileModuleService>(LASTMILE_MODULE).recordAttemptInterrupted(attempt)
)

type DeliveryRead =
  | { skip: BookingSkip }
  | { order: OrderRow; option: DeliveryOption; lineIds: string[]; origin: "order" | "exchange" | "claim" }

/** The lastmile option that ships a delivery, with the shipping profile whose items it carries. */
interface DeliveryOption {
  id: string
  profileId: string | null
}

/** The order, the lastmile option that ships the delivery, and the lines it carries. */
async function readDelivery(container: MedusaContainer, input: PrepareOrderBookingInput): Promise<DeliveryRead> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const reference = input.reference_id
  const [{ data: orders }, replacements] = await Promise.all([
    query.graph({
      entity: "order",
      fields: [
        "id",
        "display_id",
        "status",
        "canceled_at",
        // Order item quantities are computed: only "items.*" returns them.
        "items.*",
        "items.detail.fulfilled_quantity",
        "items.variant.product.shipping_profile.id",
        "shipping_methods.id",
        "shipping_methods.shipping_option_id",
        "shipping_methods.data",
        "fulfillments.id",
        "fulfillments.canceled_at",
        "fulfillments.data",
        "fulfillments.items.line_item_id",
      ],
      filters: { id: input.order_id },
    }),
    readOrderReplacements(container, input.order_id),
  ])
  const order: OrderRow | undefined = orders[0]
  if (!order) {
    return { skip: { status: "not_lastmile" } }
  }
  if (order.canceled_at || order.status === "canceled") {
    return { skip: { status: "cancelled" } }
  }
  const items = (order.items ?? []).flatMap((i) => (i ? [i] : []))
  if (!reference) {
    const method = (order.shipping_methods ?? []).find((m) => m && readShippingMethodData(m.data))
    const option = method?.shipping_option_id
      ? await lastmileDeliveryOption(container, [method.shipping_option_id])
      : undefined
    if (!option) {
      return { skip: { status: "not_lastmile" } }
    }
    // The order's own delivery carries its own items; a replacement's are booked as its own delivery.
    const replaced = new Set(replacements.flatMap((r) => r.item_ids))
    return {
      order,
      option,
      lineIds: items.map((i) => i.id).filter((id) => !replaced.has(id)),
      origin: "order",
    }
  }
  const row = replacements.find((r) => r.id === reference)
  if (!row || row.cancelled) {
    return { skip: { status: row ? "cancelled" : "not_lastmile" } }
  }
  const option = await lastmileDeliveryOption(container, row.option_ids)
  if (!option) {
    return { skip: { status: "not_lastmile" } }
  }
  return { order, option, lineIds: row.item_ids, origin: row.kind }
}

/** The first of these shipping options that is a lastmile delivery or collection, in one read. */
async function lastmileDeliveryOption(container: MedusaContainer, ids: string[]): Promise<DeliveryOption | undefined> {
  if (!ids.length) {
    return undefined
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "shipping_option",
    fields: ["id", "provider_id", "data", "shipping_profile_id"],
    filters: { id: ids },
  })
  const rows = data as {
    id: string
    provider_id?: string
    data?: { id?: unknown } | null
    shipping_profile_id?: string | null
  }[]
  const found = rows.find((o) => {
    const kind = isLastmileProviderId(o.provider_id) ? optionKindOf(o.data?.id) : null
    return kind === "delivery" || kind === "collection"
  })
  return found ? { id: found.id, profileId: found.shipping_profile_id ?? null } : undefined
}

/**
 * A booking that reached a fulfillment of this delivery but no task row (the
 * row's last write failed, or the row was lost): recorded from the
 * fulfillment, never booked again.
 */
async function recordFromFulfillment(
  tasks: LastmileModuleService,
  task: TaskRow,
  order: OrderRow,
  lineIds: string[]
): Promise<boolean> {
  const live = (order.fulfillments ?? []).flatMap((f) => {
    const booking = f && !f.canceled_at ? readFulfillmentData(f.data) : null
    return f && booking ? [{ fulfillment: f, booking }] : []
  })
  if (!live.length) {
    return false
  }
  const recorded = new Set(
    (await tasks.listLastmileTasks({ order_id: order.id, status: "booked" }, { select: ["task_id"] })).map(
      (t) => t.task_id
    )
  )
  const found = live.find(
    ({ fulfillment, booking }) =>
      (task.task_id ? String(booking.taskId) === task.task_id : !recorded.has(String(booking.taskId))) &&
      (fulfillment.items ?? []).some((i) => !!i?.line_item_id && lineIds.includes(i.line_item_id))
  )
  if (!found) {
    return false
  }
  await tasks.recordBookedFromFulfillment(task, found.fulfillment.id, found.booking)
  return true
}
