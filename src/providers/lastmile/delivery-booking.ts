/**
 * Books an order's delivery (or collection) with the service. Re-quotes
 * immediately before booking, never from the checkout cache, picks the same
 * rate the shopper chose, and refuses to book anything else silently: a rate
 * that is gone or dearer than allowed needs the merchant's decision.
 */
import type { LastmileClient, ServiceQuote, ServiceTask } from "../../lib/service-client"
import { z } from "zod"
import type { MedusaAddressLike, MedusaLineLike, MerchantProductIdSource } from "../../lib/lastmile/quote-request"
import { buildQuoteRequest } from "../../lib/lastmile/quote-request"
import { BOOKING_ERROR_CODES } from "../../lib/lastmile/booking-codes"
import {
  type BookingAdditionalData,
  type LastmileShippingMethodData,
  medusaAddressSchema,
  readShippingMethodData,
} from "../../lib/lastmile/contracts"
import { formatMinor, majorToMinor } from "../../lib/lastmile/money"
import {
  type DeliveryRateRule,
  type StoreDescription,
  selectCollectionRate,
  selectDeliveryRate,
} from "../../lib/lastmile/rate-selection"
import { shopperReason } from "../../lib/lastmile/rate-details"
import type { LastmileFulfillmentOption } from "../../lib/lastmile/fulfillment-options"

const text = z.string().nullish()
/** Medusa hands quantities and amounts as numbers, strings or BigNumbers: anything that prints as a number. */
const numeric = z.custom<number | string | { toString(): string }>((value) => value !== null && value !== undefined)

/** What booking reads of the order Medusa passes to createFulfillment. */
const bookingOrderSchema = z.looseObject({
  id: z.string().min(1),
  display_id: z.union([z.number(), z.string()]).nullish(),
  currency_code: text,
  email: text,
  customer: z.looseObject({ email: text }).nullish(),
  shipping_address: medusaAddressSchema.nullish(),
  items: z
    .array(
      z.looseObject({
        id: text,
        variant_id: text,
        variant_sku: text,
        variant: z.looseObject({ id: text, sku: text }).nullish(),
        quantity: numeric,
      })
    )
    .nullish(),
  shipping_methods: z
    .array(z.looseObject({ shipping_option_id: text, amount: numeric.nullish(), data: z.unknown() }))
    .nullish(),
})
export type BookingOrder = z.infer<typeof bookingOrderSchema>

/** A Medusa address (the fulfillment's delivery address), or null when there is none that can be read. */
export function readAddress(value: unknown): MedusaAddressLike | null {
  const parsed = medusaAddressSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

/** The order as booking reads it, or null when Medusa passed none that can be read. */
export function readBookingOrder(order: unknown): BookingOrder | null {
  const parsed = bookingOrderSchema.safeParse(order)
  return parsed.success ? parsed.data : null
}

export interface BookedDelivery {
  task: ServiceTask
  adopted: boolean
  rateCode: string
}

/** The booking needs the merchant: nothing was booked. */
export class LastmileBookingNeedsAttentionError extends Error {
  readonly code = BOOKING_ERROR_CODES.needsAttention
  constructor(readonly reason: string) {
    super(`Lastmile booking needs attention: ${reason}`)
  }
}

/** The order already has a delivery at the service: the service books one per order. */
export class LastmileAlreadyBookedError extends Error {
  readonly code = BOOKING_ERROR_CODES.alreadyBooked
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
  /** How a delivery rate is picked when the shopper did not choose one and the quoted one is gone. */
  rateRule?: DeliveryRateRule
  /** The service's store list when the quote needs it to attribute collection rates. */
  storesFor: (quote: ServiceQuote, waitMs: number) => Promise<StoreDescription[]>
}

/** An item of the fulfillment being created, as Medusa hands it to the provider. */
export interface FulfillmentItemLike {
  line_item_id?: string | null
  sku?: string | null
  quantity?: number | string | { toString(): string } | null
}

/**
 * The basket of a fulfillment as checkout quoted it: the order lines it
 * covers (the option's shipping profile), each as its variant. Medusa splits
 * a line into one item per inventory item, scaled by the kit's quantities,
 * so a line's quantity is the smallest of its items', never more than the
 * line's own. Without items, the whole order.
 */
export function fulfillmentLines(
  items: FulfillmentItemLike[] | null | undefined,
  orderItems: (MedusaLineLike & { id?: string | null })[]
): MedusaLineLike[] {
  if (!items?.length) {
    return orderItems
  }
  const byLine = new Map<string, number>()
  for (const item of items) {
    if (item.line_item_id) {
      const quantity = Number(item.quantity?.toString())
      const held = byLine.get(item.line_item_id)
      byLine.set(item.line_item_id, held === undefined ? quantity : Math.min(held, quantity))
    }
  }
  // Each line as checkout knew it (its variant), never by the item's SKU, which may be the inventory item's.
  return orderItems.flatMap((line) => {
    const quantity = line.id ? byLine.get(line.id) : undefined
    return quantity === undefined ? [] : [{ ...line, quantity: Math.min(quantity, Number(line.quantity?.toString())) }]
  })
}

/** Booking is off the cart path: it may wait for a first read of the store list. */
const STORES_WAIT_MS = 10_000

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
    data: LastmileShippingMethodData
    order: BookingOrder
    /** The fulfillment's items: what the option's shipping profile covers. */
    items?: FulfillmentItemLike[] | null
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
      items: fulfillmentLines(input.items, order.items ?? []),
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
    // The rate the shopper saw: by its code, else its name; another by the rule only if they did not choose it.
    const choice = collection
      ? selectCollectionRate(quote, merchantLocationId!, currency, await this.options.storesFor(quote, STORES_WAIT_MS))
      : selectDeliveryRate(quote, deliveryType, currency, {
          rule: this.options.rateRule,
          wish: { rateCode: data.rateCode, name: data.rateName, chosen: data.rateChosen === true },
        })
    if (!choice.ok) {
      const what = collection
        ? `collection rate of store ${merchantLocationId}`
        : data.rateChosen
          ? `${deliveryType} rate ${data.rateName ?? data.rateCode} the shopper chose`
          : `${deliveryType} rate`
      throw new LastmileBookingNeedsAttentionError(
        `the ${what} is no longer offered (${shopperReason(option, choice)})`
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
    data: LastmileShippingMethodData,
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
      const method = order.shipping_methods?.find((m) => readShippingMethodData(m.data)?.optionId === data.optionId)
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
