/**
 * Reads the order and decides: nothing to book (not a lastmile order, already
 * booked, waiting for the merchant), or an attempt. An attempt's task row is
 * written (status `booking`) before the service is called, so a crash leaves
 * a trace the retry job finishes; if the attempt fails, the compensation
 * notes it as interrupted, and the booking runner then records why.
 */
import type { BigNumberInput, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService } from "../../../modules/lastmile/service"
import { type BookingAdditionalData, readShippingMethodData } from "../../../lib/lastmile/contracts"
import { isBookableMethodData } from "../../../lib/lastmile/fulfillment-options"
import {
  findBookedFulfillment,
  findOrCreateTask,
  undoAttempt,
  recordBooked,
  startAttempt,
  stockLocationAddress,
} from "../../../lib/tasks/task-records"

export type BookingSkip =
  { status: "already_booked" } | { status: "needs_attention"; reason: string } | { status: "not_lastmile" }

export type OrderBookingPlan =
  | { action: "skip"; outcome: BookingSkip }
  | {
      action: "book"
      task_row_id: string
      attempts: number
      fulfillment: {
        order_id: string
        shipping_option_id?: string
        location_id?: string
        items: { id: string; quantity: number }[]
        additional_data: { lastmile: BookingAdditionalData }
      }
    }

/** The attempt the step started, for its compensation (none when it skipped). */
type Attempt = { task_row_id: string | null; attempts: number }

export interface PrepareOrderBookingInput {
  order_id: string
  /** The merchant asked for it: a task waiting for their decision is booked again too. */
  retry_needs_attention?: boolean
}

/** The fields asked for below; loose enough for Medusa's generated query types (nullable lists and dates). */
interface OrderRow {
  id: string
  status?: unknown
  canceled_at?: unknown
  items?:
    | ({
        id: string
        quantity: BigNumberInput
        requires_shipping?: boolean | null
        variant?: { product?: { shipping_profile?: { id: string } | null } | null } | null
      } | null)[]
    | null
  shipping_methods?: ({ id: string; shipping_option_id?: string | null; data?: unknown } | null)[] | null
  fulfillments?: ({ id: string; canceled_at?: unknown; data?: unknown } | null)[] | null
}

export const prepareOrderBookingStepId = "lastmile-prepare-order-booking"

export const prepareOrderBookingStep = createStep(
  prepareOrderBookingStepId,
  async (input: PrepareOrderBookingInput, { container }) => {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const skip = (outcome: BookingSkip) =>
      new StepResponse<OrderBookingPlan, Attempt>({ action: "skip", outcome }, { task_row_id: null, attempts: 0 })

    const { data: orders } = await query.graph({
      entity: "order",
      fields: [
        "id",
        "status",
        "canceled_at",
        // Order item quantities are computed: only "items.*" returns them.
        "items.*",
        "items.variant.product.shipping_profile.id",
        "shipping_methods.id",
        "shipping_methods.shipping_option_id",
        "shipping_methods.data",
        "fulfillments.id",
        "fulfillments.canceled_at",
        "fulfillments.data",
      ],
      filters: { id: input.order_id },
    })
    const order: OrderRow | undefined = orders[0]
    const method = order?.shipping_methods?.find((m) => m && isBookableMethodData(m.data))
    const data = readShippingMethodData(method?.data)
    if (!order || !method || !data || order.canceled_at || order.status === "canceled") {
      return skip({ status: "not_lastmile" })
    }

    const task = await findOrCreateTask(tasks, {
      kind: "delivery",
      order_id: order.id,
      merchant_order_id: order.id,
      rate_code: data.rateCode ?? null,
      delivery_type: data.deliveryType ?? null,
      merchant_location_id: data.merchantLocationId ?? null,
    })
    if (task.status === "booked") {
      return skip({ status: "already_booked" })
    }
    if (task.status === "needs_attention" && !input.retry_needs_attention) {
      return skip({ status: "needs_attention", reason: "waiting for the merchant" })
    }
    // A lastmile fulfillment Medusa already has (made by the merchant, or by a run that stopped before recording it).
    const existing = findBookedFulfillment(order.fulfillments)
    if (existing) {
      await recordBooked(tasks, task, existing.id, existing.data)
      return skip({ status: "already_booked" })
    }

    const collectionAddress = await stockLocationAddress(container, data.stockLocationId)
    const profileId = await shippingProfileOf(container, method.shipping_option_id)
    // The items the option ships, as checkout quoted them: Medusa prices an option with the cart's
    // items of its shipping profile, and refuses to fulfil an item of another profile.
    const items = (order.items ?? [])
      .flatMap((item) => (item ? [item] : []))
      .filter(
        (item) =>
          item.requires_shipping !== false &&
          (!profileId || !item.variant?.product || item.variant.product.shipping_profile?.id === profileId)
      )
    const attempts = await startAttempt(tasks, task)
    const plan: OrderBookingPlan = {
      action: "book",
      task_row_id: task.id,
      attempts,
      fulfillment: {
        order_id: order.id,
        shipping_option_id: method.shipping_option_id ?? undefined,
        location_id: data.stockLocationId ?? undefined,
        items: items.map((i) => ({ id: i.id, quantity: MathBN.convert(i.quantity).toNumber() })),
        additional_data: {
          lastmile: { collection_address: collectionAddress, adopt_existing: true, first_attempt: attempts === 1 },
        },
      },
    }
    return new StepResponse<OrderBookingPlan, Attempt>(plan, { task_row_id: task.id, attempts })
  },
  // An attempt that did not complete: retried after the backoff, unless the runner records why it needs the merchant.
  async (attempt, { container }) => undoAttempt(container.resolve<LastmileModuleService>(LASTMILE_MODULE), attempt)
)

async function shippingProfileOf(
  container: MedusaContainer,
  shippingOptionId: string | null | undefined
): Promise<string | null> {
  if (!shippingOptionId) {
    return null
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "shipping_option",
    fields: ["id", "shipping_profile_id"],
    filters: { id: shippingOptionId },
  })
  const option: { shipping_profile_id?: string | null } | undefined = data[0]
  return option?.shipping_profile_id ?? null
}
