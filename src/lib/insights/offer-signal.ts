/**
 * "An option was priced for a cart": the provider announces it, the module counts it off the checkout path
 * (decision 50).
 */
import { optionKindOf } from "../contracts/fulfillment-options"
import { weakSignal } from "../support/weak-signal"

export interface OfferPriced {
  at: number
  cart_id: string
  /** The lastmile fulfillment option (`lastmile-next-day`, `lastmile-collection`). */
  fulfillment_option: string
  /** The option's stock location: the store of a collection, the dispatch location of a delivery. */
  stock_location_id: string
  /** Null when the option could be chosen; else why not (the rates route's `unavailable_code`). */
  unavailable: string | null
}

// Counting never fails a cart: an offer a listener cannot take is not counted.
const offers = weakSignal<[offer: OfferPriced]>(() => undefined)

/** Calls `listener` for each option priced while the listener is alive (hold it as long as its owner). */
export const onOfferPriced = offers.on

/** What the provider hands over: Medusa's pricing context, the option's data and the provider's answer. */
interface PricingContextLike {
  id?: unknown
  lastmile_cart_completed?: unknown
  from_location?: unknown
}

interface AnswerLike {
  calculated_amount?: unknown
  lastmile?: { unavailable_code?: unknown } | null
}

/**
 * The provider's one call: an option of a cart priced, with the answer it
 * gives Medusa. An amount means offered (a live rate, the fallback or a kept
 * price); none means unavailable, for the reason the answer gives. Anything
 * that is not a cart's delivery or collection option is left out.
 */
export function announceOfferPriced(context: unknown, optionData: unknown, answer: AnswerLike): void {
  if (!offers.heard()) {
    return
  }
  const cart = (context ?? {}) as PricingContextLike
  const option = (optionData as { id?: unknown } | null | undefined)?.id
  const kind = optionKindOf(option)
  if ((kind !== "delivery" && kind !== "collection") || typeof cart.id !== "string" || cart.lastmile_cart_completed) {
    return
  }
  const location = (cart.from_location as { id?: unknown } | null | undefined)?.id
  if (typeof location !== "string") {
    // Medusa's cart flows always say where an option leaves from; a pricing without it is the rates route's
    // head start (its answer is dropped), which the workflow's own pricing of the same state counts.
    return
  }
  const amount = answer.calculated_amount
  const code = answer.lastmile?.unavailable_code
  const offer: OfferPriced = {
    at: Date.now(),
    cart_id: cart.id,
    fulfillment_option: option as string,
    stock_location_id: location,
    unavailable:
      typeof amount === "number" && Number.isFinite(amount) ? null : typeof code === "string" ? code : "not_priced",
  }
  offers.emit(offer)
}
