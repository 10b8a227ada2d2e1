/**
 * Books an order's delivery (or collection) with the service. Re-quotes
 * immediately before booking, never from the checkout cache, picks the same
 * rate the shopper chose, and refuses to book anything else silently: a rate
 * that is gone or dearer than allowed needs the merchant's decision.
 */
import type { LastmileClient, ServiceQuote, ServiceTask } from "../../lib/service-client"
import type { MedusaAddressLike, MedusaLineLike, MerchantProductIdSource } from "./quote-request"
import { buildQuoteRequest } from "./quote-request"
import { majorToMinor, minorToMajor } from "./money"
import { type StoreDescription, selectCollectionRate, selectDeliveryRate } from "./rate-selection"
import { shopperReason } from "./rate-details"
import type { LastmileFulfillmentOption } from "./fulfillment-options"

/** What the shipping method carries (see validateFulfillmentData). */
export interface BookingMethodData {
  optionId?: string
  kind?: "delivery" | "collection"
  deliveryType?: string
  rateCode?: string | null
  merchantLocationId?: string | null
  stockLocationId?: string | null
  phoneNumber?: string | null
  quotedAmount?: number | null
  quotedCurrency?: string | null
}

export interface BookingOrder {
  id: string
  display_id?: number | string | null
  currency_code?: string | null
  email?: string | null
  customer?: { email?: string | null } | null
  shipping_address?: MedusaAddressLike | null
  items?: MedusaLineLike[] | null
  shipping_methods?: { shipping_option_id?: string | null; amount?: number | string | null; data?: unknown }[] | null
}

/** Passed by the plugin's booking runner as the workflow's `additional_data.lastmile`. */
export interface BookingAdditionalData {
  /** The address of the location the parcel leaves from (or the store, for a collection). */
  collection_address?: MedusaAddressLike | null
  /** The runner holds the order's lock and knows Medusa has no lastmile fulfillment: adopt a booking found at the service. */
  adopt_existing?: boolean
  /**
   * The runner's first attempt for this order: nothing of ours can exist at
   * the service yet, so the lookup before booking is skipped (the service
   * de-duplicates on merchantOrderId all the same).
   */
  first_attempt?: boolean
}

export interface BookedDelivery {
  task: ServiceTask
  adopted: boolean
  rateCode: string
}

/** The booking needs the merchant: nothing was booked. */
export class LastmileBookingNeedsAttentionError extends Error {
  readonly code = "lastmile_needs_attention"
  constructor(readonly reason: string) {
    super(`Lastmile booking needs attention: ${reason}`)
  }
}

/** The order already has a delivery at the service: the service books one per order. */
export class LastmileAlreadyBookedError extends Error {
  readonly code = "lastmile_already_booked"
  constructor(
    readonly orderLabel: string,
    readonly task: ServiceTask
  ) {
    super(
      `Order ${orderLabel} already has a lastmile delivery (task ${task.taskId}${task.trackingId ? `, tracking ${task.trackingId}` : ""}). The service books one delivery per order, so a second lastmile fulfillment is refused.`
    )
  }
}

export interface DeliveryBookerOptions {
  productIdSource: MerchantProductIdSource
  /** Accept a price rise up to this many percent of the price quoted at checkout. */
  priceTolerancePercent: number
  /** The service's store list when the quote needs it to attribute collection rates. */
  storesFor: (quote: ServiceQuote) => Promise<StoreDescription[]>
}

export function orderLabel(order: BookingOrder): string {
  return order.display_id !== undefined && order.display_id !== null ? `#${order.display_id}` : order.id
}

export class DeliveryBooker {
  constructor(
    private readonly client: LastmileClient,
    private readonly options: DeliveryBookerOptions
  ) {}

  async book(input: {
    option: LastmileFulfillmentOption
    data: BookingMethodData
    order: BookingOrder
    deliveryAddress?: MedusaAddressLike | null
    additional: BookingAdditionalData
  }): Promise<BookedDelivery> {
    const { option, data, order, additional } = input
    const label = orderLabel(order)

    // One delivery per order at the service: look before booking, unless this is the runner's first try.
    const existing =
      additional.adopt_existing && additional.first_attempt ? null : await this.client.findDelivery(order.id)
    if (existing) {
      if (additional.adopt_existing) {
        return { task: existing, adopted: true, rateCode: existing.rateCode ?? data.rateCode ?? "" }
      }
      throw new LastmileAlreadyBookedError(label, existing)
    }

    const address = input.deliveryAddress ?? order.shipping_address
    const deliveryType = data.deliveryType ?? option.delivery_type ?? "NEXT_DAY"
    const collection = option.kind === "collection"
    const merchantLocationId = collection ? (data.merchantLocationId ?? undefined) : undefined
    if (collection && !merchantLocationId) {
      throw new LastmileBookingNeedsAttentionError("the shipping method does not say which store was chosen")
    }
    const built = buildQuoteRequest({
      merchantOrderId: order.id,
      merchantOrderName: label,
      deliveryType,
      items: order.items ?? [],
      shippingAddress: address ? { ...address, phone: data.phoneNumber ?? address.phone } : address,
      email: order.customer?.email ?? order.email,
      collectionAddress: additional.collection_address,
      merchantLocationId,
      productIdSource: this.options.productIdSource,
    })
    if (!built.ok) {
      throw new LastmileBookingNeedsAttentionError(built.problems.map((p) => p.message).join(" "))
    }

    // Quotes go stale in about 2 minutes: always a fresh one right before booking.
    const quote: ServiceQuote = await this.client.quote(built.request)
    const currency = (order.currency_code ?? data.quotedCurrency ?? "").toString()
    const choice = collection
      ? selectCollectionRate(quote, merchantLocationId!, currency, await this.options.storesFor(quote))
      : selectDeliveryRate(quote, deliveryType, deliveryType, currency)
    if (!choice.ok) {
      throw new LastmileBookingNeedsAttentionError(
        `the ${collection ? `collection rate of store ${merchantLocationId}` : `${deliveryType} rate`} is no longer offered (${shopperReason(option, choice)})`
      )
    }
    const limit = this.priceLimit(data, order, currency)
    if (limit !== undefined && choice.price.amount > limit.allowed) {
      throw new LastmileBookingNeedsAttentionError(
        `the price rose from ${formatMinor(limit.reference, currency)} at checkout to ${formatMinor(choice.price.amount, currency)}`
      )
    }
    const booked = await this.client.bookDelivery({ ...built.request, rateCode: choice.rate.rateCode })
    return { task: booked.task, adopted: booked.adopted, rateCode: choice.rate.rateCode }
  }

  /** The price the shopper agreed to, in minor units, and the most the booking may cost. */
  private priceLimit(
    data: BookingMethodData,
    order: BookingOrder,
    currency: string
  ): { reference: number; allowed: number } | undefined {
    let reference: number | undefined
    if (
      typeof data.quotedAmount === "number" &&
      (data.quotedCurrency ?? currency).toUpperCase() === currency.toUpperCase()
    ) {
      reference = data.quotedAmount
    } else {
      // Chosen at the outage fallback: the amount the shopper paid is the reference.
      const method = order.shipping_methods?.find(
        (m) => (m.data as BookingMethodData | null)?.optionId === data.optionId
      )
      const paid = method?.amount !== undefined && method?.amount !== null ? Number(method.amount) : NaN
      if (Number.isFinite(paid) && currency) {
        reference = majorToMinor(paid, currency)
      }
    }
    if (reference === undefined) {
      return undefined
    }
    return { reference, allowed: reference * (1 + this.options.priceTolerancePercent / 100) }
  }
}

function formatMinor(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).format(minorToMajor(amount, currency))
  } catch {
    return `${amount} (minor units)`
  }
}
