/**
 * Books a return that uses the lastmile-return option: `POST /task/returns`
 * with collection = the customer's address and delivery = the return
 * location's address, keyed on the return id. Medusa gives the provider
 * neither the order nor the customer's address for returns, so this runs from
 * the order.return_requested subscriber. A return is never posted twice
 * blindly (the spec does not say returns are de-duplicated): an unknown
 * outcome needs the merchant.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { updateFulfillmentWorkflow } from "@medusajs/medusa/core-flows"
import { LastmileBookingOutcomeUnknownError, LastmileError } from "../service-client"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { LASTMILE_PROVIDER_ID } from "../lastmile/fulfillment-options"
import { type MedusaAddressLike, buildQuoteRequest } from "../lastmile/quote-request"
import { selectDeliveryRate } from "../lastmile/rate-selection"
import { findOrCreateTask, recordBooked, recordFailure, startAttempt, stockLocationAddress } from "./task-records"
import { errorMessage } from "../lastmile/error-message"
import { lastmileClient } from "../connection/lastmile-connection"

export type ReturnBookingOutcome =
  | { status: "booked"; taskId: string }
  | { status: "already_booked" }
  | { status: "needs_attention"; reason: string }
  | { status: "failed"; reason: string }
  | { status: "not_lastmile" }

interface ReturnRow {
  id: string
  order_id: string
  location_id?: string | null
  items?: { item_id: string; quantity: unknown }[]
  fulfillments?: { id: string; provider_id?: string | null; canceled_at?: string | null }[]
}

interface OrderRow {
  id: string
  display_id?: number
  currency_code?: string
  customer?: { email?: string | null } | null
  shipping_address?: MedusaAddressLike | null
  items?: { id: string; variant_id?: string | null; variant_sku?: string | null }[]
}

export async function bookReturn(container: MedusaContainer, returnId: string): Promise<ReturnBookingOutcome> {
  const locking = container.resolve(Modules.LOCKING)
  return locking.execute(`lastmile:return:${returnId}`, () => bookReturnLocked(container, returnId), { timeout: 60 })
}

async function bookReturnLocked(container: MedusaContainer, returnId: string): Promise<ReturnBookingOutcome> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)

  const { data: returns } = await query.graph({
    entity: "return",
    fields: [
      "id",
      "order_id",
      "location_id",
      "items.item_id",
      "items.quantity",
      "fulfillments.id",
      "fulfillments.provider_id",
      "fulfillments.canceled_at",
    ],
    filters: { id: returnId },
  })
  const orderReturn = returns[0] as ReturnRow | undefined
  const fulfillment = orderReturn?.fulfillments?.find((f) => f.provider_id === LASTMILE_PROVIDER_ID && !f.canceled_at)
  const service = lastmileClient(container)
  if (!orderReturn || !fulfillment || !service) {
    return { status: "not_lastmile" }
  }

  const task = await findOrCreateTask(tasks, {
    kind: "return",
    order_id: orderReturn.order_id,
    return_id: orderReturn.id,
    fulfillment_id: fulfillment.id,
    merchant_order_id: orderReturn.id,
  })
  if (task.status === "booked") {
    return { status: "already_booked" }
  }
  if (task.status === "needs_attention") {
    return { status: "needs_attention", reason: task.last_error ?? "waiting for the merchant" }
  }
  const attempts = await startAttempt(tasks, task)

  try {
    const { data: orders } = await query.graph({
      entity: "order",
      fields: ["id", "display_id", "currency_code", "customer.email", "shipping_address.*", "items.*"],
      filters: { id: orderReturn.order_id },
    })
    const order = orders[0] as unknown as OrderRow
    const returnAddress = await stockLocationAddress(container, orderReturn.location_id)
    const lines = (orderReturn.items ?? []).map((ri) => {
      const item = order.items?.find((i) => i.id === ri.item_id)
      return {
        variant_id: item?.variant_id,
        variant_sku: item?.variant_sku,
        quantity: MathBN.convert(ri.quantity as never).toNumber(),
      }
    })
    const deliveryType = service.options.deliveryTypes[0]
    const built = buildQuoteRequest({
      merchantOrderId: orderReturn.id,
      merchantOrderName: `#${order.display_id ?? order.id} return`,
      deliveryType,
      items: lines,
      shippingAddress: order.shipping_address,
      email: order.customer?.email,
      collectionAddress: returnAddress,
      productIdSource: service.options.productIdSource,
    })
    if (!built.ok) {
      throw new ReturnNeedsAttention(built.problems.map((p) => p.message).join(" "))
    }
    // The parcel goes from the customer back to the merchant.
    const request = {
      ...built.request,
      collection: { address: built.request.delivery.address },
      delivery: { address: built.request.collection.address },
    }
    const quote = await service.client.quote(request)
    const choice = selectDeliveryRate(quote, deliveryType, order.currency_code ?? "", {
      rule: service.options.deliveryRateRule,
    })
    if (!choice.ok) {
      throw new ReturnNeedsAttention(`the service offers no ${deliveryType} rate for this return (${choice.detail})`)
    }
    const { task: booked } = await service.client.bookReturn({ ...request, rateCode: choice.rate.rateCode })
    const data = {
      taskId: booked.taskId,
      trackingId: booked.trackingId ?? null,
      trackingUrl: booked.trackingUrl ?? null,
      status: booked.status?.value ?? null,
      rateCode: choice.rate.rateCode,
    }
    // The workflow passes labels through to the module (its input type omits them).
    const update: { id: string; data: Record<string, unknown>; labels: FulfillmentLabel[] } = {
      id: fulfillment.id,
      data,
      labels: booked.trackingId
        ? [{ tracking_number: booked.trackingId, tracking_url: booked.trackingUrl ?? "", label_url: "" }]
        : [],
    }
    await updateFulfillmentWorkflow(container).run({ input: update })
    await recordBooked(tasks, task, fulfillment.id, data)
    logger.info(`lastmile: return ${returnId} booked as task ${String(booked.taskId)}`)
    return { status: "booked", taskId: String(booked.taskId) }
  } catch (error) {
    const message = errorMessage(error)
    const attention =
      error instanceof ReturnNeedsAttention ||
      error instanceof LastmileBookingOutcomeUnknownError ||
      (error instanceof LastmileError && !error.transient && !error.notProcessed)
    await recordFailure(tasks, task, { attempts, message, needsAttention: attention })
    logger.warn(`lastmile: booking return ${returnId} ${attention ? "needs attention" : "failed"}: ${message}`)
    return attention ? { status: "needs_attention", reason: message } : { status: "failed", reason: message }
  }
}

class ReturnNeedsAttention extends Error {}

interface FulfillmentLabel {
  tracking_number: string
  tracking_url: string
  label_url: string
}
