/**
 * The booking core, for every road: look up an earlier attempt's booking, quote afresh, pick the rate, book. What must
 * not be booked silently (a rate gone, a price risen, details missing) is a refusal the merchant can act on.
 */
import { type BookingResult, type LastmileClient, LastmileRejectedError } from "../service-client"
import type { BookingRequest } from "../contracts/service-shapes"
import {
  type MedusaAddressLike,
  type MedusaLineLike,
  type MerchantProductIdSource,
  buildQuoteRequest,
} from "../checkout/quote-request"
import { formatMinor } from "../money/money"
import {
  type DeliveryRateRule,
  type RateWish,
  needsStoreDirectory,
  selectCollectionRate,
  selectDeliveryRate,
} from "../checkout/rate-selection"
import { shopperReason } from "../checkout/rate-details"
import type { LastmileFulfillmentOption } from "../contracts/fulfillment-options"
import { toStoreDescriptions } from "../store/store-identity"
import { storeCalendarOf, withOpenDayReadiness } from "../collection/readiness"
import { type DeliveryNoteOutcome, type ServiceBookingOutcome, outcomeOfError, refusal } from "./booking-outcome"

/** Everything a booking needs, read from Medusa by the workflow that books. */
export interface BookingSubject {
  /** A delivery goes from the merchant to the customer; a return from the customer back to the merchant. */
  direction: "delivery" | "return"
  option: LastmileFulfillmentOption
  deliveryType: string
  merchantOrderId: string
  merchantOrderName: string
  /** The customer's address: delivered to, or collected from for a return (with their name and phone). */
  customerAddress: MedusaAddressLike | null
  email: string | null
  lines: MedusaLineLike[]
  /** The merchant's location: where a delivery leaves from (the store, for a collection), where a return goes. */
  merchantAddress: MedusaAddressLike | null
  /** The store's external id (collection). */
  merchantLocationId?: string | null
  /** The store's closed dates (collection), `YYYY-MM-DD`: a readiness on one moves to its next open day. */
  closedDates?: readonly string[]
  /** The rate the shopper chose, or the one that priced the method. */
  wish?: RateWish
  currency: string
  /** What the customer paid for it, in minor units: a dearer booking needs the merchant (price tolerance aside). */
  paidMinor?: number | null
  /** An earlier attempt may have reached the service: look before posting. */
  lookupFirst: boolean
  /** A return that may have posted and that the lookup does not find: never posted again, it waits for the merchant. */
  mustNotPost?: boolean
  /** The shopper's note to the courier (the order's own delivery), sent as `order.note` when the policy says so. */
  deliveryNote?: string | null
}

export interface BookingPolicy {
  productIdSource: MerchantProductIdSource
  priceTolerancePercent: number
  deliveryRateRule: DeliveryRateRule
  /** `send_delivery_note`: the service takes `order.note` (its spec does not show it). Default false. */
  sendDeliveryNote?: boolean
  /** The store's zone when its service hours name none (the plugin's options'; else the server's). */
  storeTimeZone?: string
}

export async function bookAtService(
  client: LastmileClient,
  subject: BookingSubject,
  policy: BookingPolicy,
  now: () => Date = () => new Date()
): Promise<ServiceBookingOutcome> {
  return book(client, subject, policy, now).catch((error: unknown) => {
    const outcome = outcomeOfError(error)
    // The lookup of a return that may have posted failed: still never posted again blindly.
    return subject.mustNotPost && outcome.status === "unknown" ? { ...outcome, posted: true } : outcome
  })
}

async function book(
  client: LastmileClient,
  subject: BookingSubject,
  policy: BookingPolicy,
  now: () => Date
): Promise<ServiceBookingOutcome> {
  const { productIdSource, priceTolerancePercent, deliveryRateRule: rule } = policy
  const taskType = subject.direction === "return" ? "RETURN" : "DELIVERY"
  if (subject.lookupFirst || subject.mustNotPost) {
    const existing = await client.findTask(subject.merchantOrderId, { kind: taskType })
    if (existing) {
      const rate = existing.rateCode ? { rateCode: existing.rateCode } : null
      return { status: "booked", task: existing, adopted: true, rate }
    }
    if (subject.mustNotPost) {
      return refusal(
        "the return's last attempt was interrupted and may have reached the service, which does not list it: check the service's app, then retry"
      )
    }
  }
  const collection = subject.direction === "delivery" && subject.option.kind === "collection"
  if (collection && !subject.merchantLocationId) {
    return refusal("the shipping method does not say which store was chosen")
  }
  const built = buildQuoteRequest({
    merchantOrderId: subject.merchantOrderId,
    merchantOrderName: subject.merchantOrderName,
    deliveryType: subject.deliveryType,
    items: subject.lines,
    shippingAddress: subject.customerAddress,
    email: subject.email,
    collectionAddress: subject.merchantAddress,
    merchantLocationId: collection ? (subject.merchantLocationId ?? undefined) : undefined,
    productIdSource,
  })
  if (!built.ok) {
    return refusal(built.problems.map((p) => p.message).join(" "))
  }
  // A return travels the other way: from the customer's address back to the merchant's.
  const request =
    subject.direction === "return"
      ? {
          ...built.request,
          collection: { address: built.request.delivery.address },
          delivery: { address: built.request.collection.address },
        }
      : built.request

  // Quotes go stale in about 2 minutes: always a fresh one right before booking.
  const quotedAt = now().toISOString()
  const quote = await client.quote(request)
  // Booking is off the cart path: it may read the service's store list when a collection rate names no store, or for
  // the store's hours when the merchant has closed dates.
  const closedDates = collection ? (subject.closedDates ?? []) : []
  const stores =
    collection && (needsStoreDirectory(quote) || closedDates.length)
      ? toStoreDescriptions(await client.listFulfilmentLocations())
      : []
  const picked = collection
    ? selectCollectionRate(quote, subject.merchantLocationId!, subject.currency, stores)
    : selectDeliveryRate(quote, subject.deliveryType, subject.currency, { rule, wish: subject.wish })
  const hours = stores.find((store) => store.externalLocationId === subject.merchantLocationId)?.operatingHours
  const choice =
    picked.ok && closedDates.length
      ? {
          ...picked,
          rate: withOpenDayReadiness(picked.rate, storeCalendarOf(hours, closedDates, policy.storeTimeZone)),
        }
      : picked
  if (!choice.ok) {
    const why = subject.direction === "return" ? choice.detail : shopperReason(subject.option, choice)
    return refusal(`the ${rateWanted(subject)} is no longer offered (${why})`)
  }
  // The most a delivery may cost: what was paid, plus the tolerance.
  const paid = subject.direction === "delivery" && Number.isFinite(subject.paidMinor) ? Number(subject.paidMinor) : null
  if (paid !== null && choice.price.amount > paid * (1 + priceTolerancePercent / 100)) {
    return refusal(
      `the price rose from ${formatMinor(paid, subject.currency)} paid to ${formatMinor(choice.price.amount, subject.currency)}`
    )
  }
  const booking = { ...request, rateCode: choice.rate.rateCode }
  const note = subject.direction === "delivery" && policy.sendDeliveryNote ? subject.deliveryNote?.trim() : null
  const { booked, deliveryNote } = note
    ? await postWithNote(client, booking, note)
    : { booked: await post(client, subject, booking), deliveryNote: undefined }
  const { rateCode, name, window, description, co2Savings } = choice.rate
  return {
    status: "booked",
    task: booked.task,
    adopted: booked.adopted,
    rate: { rateCode, name, window, description, co2Savings, price: choice.price, quotedAt },
    ...(deliveryNote ? { deliveryNote } : {}),
  }
}

const post = (client: LastmileClient, subject: BookingSubject, booking: BookingRequest) =>
  subject.direction === "return" ? client.bookReturn(booking) : client.bookDelivery(booking)

/**
 * A delivery with the shopper's note as `order.note` (decision 63). A service that does not take the field refuses the
 * request (a 4xx: nothing was processed), so it is booked again without the note rather than not at all, and the
 * outcome says the note was refused, with the status only (a body may repeat the note). Decided by the error's class
 * and code, never its text; a second refusal is the booking's own.
 */
async function postWithNote(
  client: LastmileClient,
  booking: BookingRequest,
  note: string
): Promise<{ booked: BookingResult; deliveryNote: DeliveryNoteOutcome }> {
  try {
    const booked = await client.bookDelivery({ ...booking, order: { ...booking.order, note } })
    return { booked, deliveryNote: { sent: true } }
  } catch (error) {
    if (!(error instanceof LastmileRejectedError) || error.code !== "rejected") {
      throw error
    }
    const booked = await client.bookDelivery(booking)
    return { booked, deliveryNote: { sent: false, status: error.status ?? null } }
  }
}

const rateWanted = (subject: BookingSubject): string =>
  subject.direction === "return"
    ? `${subject.deliveryType} rate for this return`
    : subject.option.kind === "collection"
      ? `collection rate of store ${subject.merchantLocationId}`
      : subject.wish?.chosen
        ? `${subject.deliveryType} rate ${subject.wish.name ?? subject.wish.rateCode} the shopper chose`
        : `${subject.deliveryType} rate`
