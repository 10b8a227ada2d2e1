/**
 * Quotes and books `POST /task/returns`: collection = the customer's shipping
 * address, delivery = the return location's address, `merchantOrderId` = the
 * return id. The service has no cancel operation, so this step has no
 * compensation: a booked return stays booked, and the steps after it only
 * record it. Failures are MedusaErrors with the plugin's booking codes: one
 * that could book twice if repeated (an unknown outcome, a refusal) needs the
 * merchant; one refused before processing is retried.
 */
import { ContainerRegistrationKeys, MathBN, MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LastmileBookingOutcomeUnknownError, LastmileError, pickTask } from "../../../lib/service-client"
import { lastmileClient } from "../../../lib/connection/lastmile-connection"
import { stockLocationAddress } from "../../../lib/tasks/task-records"
import { ReturnNeedsAttentionError } from "../../../lib/tasks/booking-errors"
import { BOOKING_ERROR_CODES } from "../../../lib/lastmile/booking-codes"
import { type FulfillmentLabel, type LastmileFulfillmentData, toLabels } from "../../../lib/lastmile/contracts"
import { type MedusaAddressLike, buildQuoteRequest } from "../../../lib/lastmile/quote-request"
import { selectDeliveryRate } from "../../../lib/lastmile/rate-selection"

export interface ReturnBooked {
  data: LastmileFulfillmentData
  labels: FulfillmentLabel[]
}

interface ReturnRow {
  id: string
  order_id: string
  location_id?: string | null
  items?: ({ item_id: string; quantity: number | string } | null)[] | null
}

interface OrderRow {
  id: string
  display_id?: number | string | null
  currency_code?: string
  customer?: { email?: string | null } | null
  shipping_address?: MedusaAddressLike | null
  items?: ({ id: string; variant_id?: string | null; variant_sku?: string | null } | null)[] | null
}

export const bookReturnAtServiceStepId = "lastmile-book-return-at-service"

export const bookReturnAtServiceStep = createStep(
  bookReturnAtServiceStepId,
  async (input: { return_id: string; attempts: number }, { container }) => {
    const service = lastmileClient(container)
    if (!service) {
      throw new ReturnNeedsAttentionError("the lastmile provider is not configured")
    }
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const { data: returns } = await query.graph({
      entity: "return",
      fields: ["id", "order_id", "location_id", "items.item_id", "items.quantity"],
      filters: { id: input.return_id },
    })
    const orderReturn: ReturnRow = returns[0]
    const { data: orders } = await query.graph({
      entity: "order",
      fields: ["id", "display_id", "currency_code", "customer.email", "shipping_address.*", "items.*"],
      filters: { id: orderReturn.order_id },
    })
    const order: OrderRow = orders[0]
    const lines = (orderReturn.items ?? [])
      .flatMap((returned) => (returned ? [returned] : []))
      .map((returned) => {
        const item = order.items?.find((i) => i?.id === returned.item_id)
        return {
          variant_id: item?.variant_id,
          variant_sku: item?.variant_sku,
          quantity: MathBN.convert(returned.quantity).toNumber(),
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
      collectionAddress: await stockLocationAddress(container, orderReturn.location_id),
      productIdSource: service.options.productIdSource,
    })
    if (!built.ok) {
      throw new ReturnNeedsAttentionError(built.problems.map((p) => p.message).join(" "))
    }
    // The parcel goes from the customer back to the merchant.
    const request = {
      ...built.request,
      collection: { address: built.request.delivery.address },
      delivery: { address: built.request.collection.address },
    }
    try {
      // A later attempt may follow one that booked before it failed: never post a return twice, adopt it.
      const earlier =
        input.attempts > 1 ? pickTask(await service.client.findDeliveries(orderReturn.id), "RETURN") : null
      if (earlier) {
        const adopted: LastmileFulfillmentData = {
          taskId: earlier.taskId,
          trackingId: earlier.trackingId ?? null,
          trackingUrl: earlier.trackingUrl ?? null,
          status: earlier.status?.value ?? null,
          rateCode: earlier.rateCode ?? null,
          adopted: true,
        }
        return new StepResponse<ReturnBooked>({ data: adopted, labels: toLabels(adopted) })
      }
      const quote = await service.client.quote(request)
      const choice = selectDeliveryRate(quote, deliveryType, order.currency_code ?? "", {
        rule: service.options.deliveryRateRule,
      })
      if (!choice.ok) {
        throw new ReturnNeedsAttentionError(
          `the service offers no ${deliveryType} rate for this return (${choice.detail})`
        )
      }
      const { task } = await service.client.bookReturn({ ...request, rateCode: choice.rate.rateCode })
      const data: LastmileFulfillmentData = {
        taskId: task.taskId,
        trackingId: task.trackingId ?? null,
        trackingUrl: task.trackingUrl ?? null,
        status: task.status?.value ?? null,
        rateCode: choice.rate.rateCode,
      }
      return new StepResponse<ReturnBooked>({ data, labels: toLabels(data) })
    } catch (error) {
      throw toReturnBookingError(error)
    }
  }
)

/** Retried only when the service certainly did not book: the spec does not say returns are de-duplicated. */
function toReturnBookingError(error: unknown): MedusaError {
  if (error instanceof MedusaError) {
    return error
  }
  const message = error instanceof Error ? error.message : String(error)
  const needsMerchant =
    error instanceof LastmileBookingOutcomeUnknownError ||
    (error instanceof LastmileError && !error.transient && !error.notProcessed)
  return needsMerchant
    ? new ReturnNeedsAttentionError(message)
    : new MedusaError(MedusaError.Types.UNEXPECTED_STATE, message, BOOKING_ERROR_CODES.failed)
}
