/**
 * Reads a return and decides: nothing to book (no lastmile return
 * fulfillment, booked already, waiting for the merchant), or an attempt,
 * whose task row (keyed on the return id) is written before the service is
 * called. Whichever road made the return (the storefront, the dashboard, an
 * exchange's or a claim's inbound items), the parcel goes from the
 * customer's address to the location Medusa put on the return's fulfillment
 * (resolved from the option's zone when the request named none), with the
 * return's own items. If the attempt fails, the compensation notes it as
 * interrupted; the runner then records why.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService } from "../../../modules/lastmile/service"
import {
  isLastmileProviderId,
  RETURN_OPTION_ID,
  buildFulfillmentOptions,
} from "../../../lib/contracts/fulfillment-options"
import type { BookingSubject } from "../../../lib/booking/book-at-service"
import { orderName } from "../../../lib/booking/delivery-unit"
import { type MedusaAddressLike, type MedusaLineLike } from "../../../lib/checkout/quote-request"
import type { BookingSkip } from "../../../lib/booking/booking-codes"

export type ReturnBookingSkip = Extract<
  BookingSkip,
  { status: "already_booked" } | { status: "needs_attention" } | { status: "not_lastmile" } | { status: "cancelled" }
>

export type ReturnBookingPlan =
  | { action: "skip"; outcome: ReturnBookingSkip }
  | {
      action: "book"
      task_row_id: string
      attempts: number
      fulfillment_id: string
      subject: BookingSubject
    }

interface ReturnRow {
  id: string
  order_id: string
  status?: string | null
  canceled_at?: unknown
  location_id?: string | null
  items?: ({ item_id: string; quantity: unknown } | null)[] | null
  fulfillments?:
    ({ id: string; provider_id?: string | null; canceled_at?: unknown; location_id?: string | null } | null)[] | null
}

interface OrderRow {
  id: string
  display_id?: number | string | null
  currency_code: string
  email?: string | null
  customer?: { email?: string | null } | null
  shipping_address?: MedusaAddressLike | null
  items?: ((MedusaLineLike & { id: string }) | null)[] | null
}

type Attempt = { task_row_id: string | null; attempts: number }

export const prepareReturnBookingStepId = "lastmile-prepare-return-booking"

export const prepareReturnBookingStep = createStep(
  prepareReturnBookingStepId,
  async (input: { return_id: string; retry_needs_attention?: boolean }, { container }) => {
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const skip = (outcome: ReturnBookingSkip) =>
      new StepResponse<ReturnBookingPlan, Attempt>({ action: "skip", outcome }, { task_row_id: null, attempts: 0 })

    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data } = await query.graph({
      entity: "return",
      fields: [
        "id",
        "order_id",
        "status",
        "canceled_at",
        "location_id",
        "items.item_id",
        "items.quantity",
        "fulfillments.id",
        "fulfillments.provider_id",
        "fulfillments.canceled_at",
        "fulfillments.location_id",
      ],
      filters: { id: input.return_id },
    })
    const orderReturn: ReturnRow | undefined = data[0]
    const fulfillment = orderReturn?.fulfillments?.find(
      (f): f is NonNullable<typeof f> => !!f && isLastmileProviderId(f.provider_id) && !f.canceled_at
    )
    const connection = tasks.connection()
    if (!orderReturn || !fulfillment || !connection) {
      return skip({ status: "not_lastmile" })
    }
    const task = await tasks.findOrCreateTask({
      kind: "return",
      origin: "return",
      order_id: orderReturn.order_id,
      return_id: orderReturn.id,
      fulfillment_id: fulfillment.id,
      merchant_order_id: orderReturn.id,
    })
    if (task.status === "booked") {
      return skip({ status: "already_booked" })
    }
    if (task.status === "cancelled" || orderReturn.canceled_at || orderReturn.status === "canceled") {
      return skip({ status: "cancelled" })
    }
    if (task.status === "needs_attention" && !input.retry_needs_attention) {
      return skip({ status: "needs_attention", reason: task.last_error ?? "waiting for the merchant" })
    }
    const order = await readOrder(container, orderReturn.order_id)
    const name = `${orderName(order)} return`
    const attempts = await tasks.startAttempt(task, { name })
    const subject: BookingSubject = {
      direction: "return",
      option: buildFulfillmentOptions(connection.options.deliveryTypes).find((o) => o.id === RETURN_OPTION_ID)!,
      deliveryType: connection.options.deliveryTypes[0],
      merchantOrderId: orderReturn.id,
      merchantOrderName: name,
      customerAddress: order.shipping_address ?? null,
      email: order.email ?? order.customer?.email ?? null,
      lines: returnLines(orderReturn, order),
      // Where Medusa sends it back: the fulfillment's location (from the option's zone), else the return's own.
      merchantAddress: await locationAddress(container, fulfillment.location_id ?? orderReturn.location_id),
      currency: order.currency_code,
      // Returns are not said to be de-duplicated: a later attempt looks the earlier one up, never posts blindly.
      lookupFirst: attempts > 1,
    }
    return new StepResponse<ReturnBookingPlan, Attempt>(
      { action: "book", task_row_id: task.id, attempts, fulfillment_id: fulfillment.id, subject },
      { task_row_id: task.id, attempts }
    )
  },
  // An attempt that did not complete: retried after the backoff, unless the runner records why it needs the merchant.
  async (attempt, { container }) =>
    container.resolve<LastmileModuleService>(LASTMILE_MODULE).recordAttemptInterrupted(attempt)
)

async function readOrder(container: MedusaContainer, orderId: string): Promise<OrderRow> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "display_id", "currency_code", "email", "customer.email", "shipping_address.*", "items.*"],
    filters: { id: orderId },
  })
  return data[0] as OrderRow
}

/** The return's own items (an exchange's or a claim's fulfillment lists the whole order), each as its variant. */
function returnLines(orderReturn: ReturnRow, order: OrderRow): MedusaLineLike[] {
  return (orderReturn.items ?? []).flatMap((returned) => {
    const item = returned ? order.items?.find((i) => i?.id === returned.item_id) : undefined
    return returned && item
      ? [
          {
            variant_id: item.variant_id,
            variant_sku: item.variant_sku,
            quantity: MathBN.convert(returned.quantity as number).toNumber(),
          },
        ]
      : []
  })
}

async function locationAddress(
  container: MedusaContainer,
  locationId: string | null | undefined
): Promise<MedusaAddressLike | null> {
  if (!locationId) {
    return null
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "stock_location",
    fields: ["id", "address.*"],
    filters: { id: locationId },
  })
  return (data[0] as { address?: MedusaAddressLike | null } | undefined)?.address ?? null
}
