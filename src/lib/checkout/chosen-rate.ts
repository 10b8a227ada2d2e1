/**
 * What a pricing call is about besides the cart: the rate asked for (`data.rate_code`, all the plugin reads of a
 * client's `data`), the rate the cart's method holds and the price it keeps through an outage (decision 21).
 */
import { createHash } from "node:crypto"
import { COLLECTION_RATE_CODE, type LastmileFulfillmentOption } from "../contracts/fulfillment-options"
import { readShippingMethodData } from "../contracts/plugin-data"
import type { ServiceRate } from "../contracts/service-shapes"
import type { ChosenMethod } from "./pricing-additions"
import { type RateWish, findWishedRate } from "./rate-selection"
import { type LastmileRateDetails, describeStandIn } from "./rate-details"
import type { PricingResult } from "./pricing-result"
import {
  type MedusaAddressLike,
  type MedusaLineLike,
  type MerchantProductIdSource,
  type QuoteInputProblem,
  toLineItems,
  toServiceAddress,
} from "./quote-request"

export type RateRequest = { wish?: RateWish } | { problem: string }

/** `data.rate_code`: a delivery rate of the cart's quote (a collection has one: SVC_COL); a bad one said in words. */
export function requestedRate(
  option: LastmileFulfillmentOption,
  data: Record<string, unknown> | undefined
): RateRequest {
  const code = data?.rate_code
  if (code === undefined || code === null) {
    return {}
  }
  if (typeof code !== "string" || !code.trim() || code.length > 200) {
    return {
      problem:
        "data.rate_code must be the rate_code of one of the cart's delivery rates (GET /store/lastmile/rates lists them).",
    }
  }
  if (option.kind !== "delivery") {
    return code.trim() === COLLECTION_RATE_CODE
      ? {}
      : {
          problem: `A collection option is booked at its store's one rate; data.rate_code may only be ${COLLECTION_RATE_CODE}.`,
        }
  }
  return { wish: { rateCode: code.trim(), chosen: true } }
}

/** The cart's method for this option, and for a collection of the same store (each has its own shipping option). */
export function chosenMethodFor(
  option: LastmileFulfillmentOption,
  methods: ChosenMethod[] | null | undefined,
  locationId: string | null | undefined
): ChosenMethod | undefined {
  return (methods ?? []).find(
    (m) => m.option_id === option.id && (option.kind !== "collection" || m.location_id === (locationId ?? null))
  )
}

/** The rate a pricing call is about: the one asked for, else the one the cart's method holds. */
export function rateWish(
  option: LastmileFulfillmentOption,
  data: Record<string, unknown> | undefined,
  chosen: ChosenMethod | undefined
): RateRequest {
  const asked = requestedRate(option, data)
  if ("problem" in asked || asked.wish || option.kind !== "delivery") {
    return asked
  }
  if (!chosen || (!chosen.rate_code && !chosen.rate_name)) {
    return {}
  }
  return { wish: { rateCode: chosen.rate_code, name: chosen.rate_name, chosen: chosen.rate_chosen } }
}

/**
 * The named rate a cart's delivery method holds, when Medusa prices that stored method again: its refresh after a
 * cart change hands the method's own `data` back (a listing, the rates route and a new choice hand the client's,
 * which never carries the plugin's mark). Such a method is priced as that rate, live or at its kept price, or not
 * at all, which makes Medusa remove it: its data keeps the rate's name, code and window, so any other price
 * (the outage estimate, the rule's pick of another rate) would stand under a name it is not (decision 58).
 * A method chosen at the estimate names no rate, and is priced as the option is.
 */
export function heldRate(
  option: LastmileFulfillmentOption,
  data: Record<string, unknown> | undefined,
  chosen: ChosenMethod | undefined
): RateWish | undefined {
  if (option.kind !== "delivery" || !chosen || chosen.fallback || (!chosen.rate_code && !chosen.rate_name)) {
    return undefined
  }
  if (!readShippingMethodData(data)) {
    return undefined
  }
  return { rateCode: chosen.rate_code, name: chosen.rate_name, chosen: chosen.rate_chosen }
}

/** Whether a rate is the one a method holds: by its code, else by its name (codes may be minted per quote). */
export function isHeldRate(rate: ServiceRate, held: RateWish): boolean {
  return findWishedRate([{ rate }], held) !== undefined
}

/**
 * The address and basket a price is quoted for, as a digest: it is public on the method's data (`quotedFor`).
 * Null while the cart cannot be quoted.
 */
export function cartStateOf(
  cart: { shippingAddress?: MedusaAddressLike | null; items: MedusaLineLike[] },
  productIdSource?: MerchantProductIdSource
): string | null {
  const problems: QuoteInputProblem[] = []
  const address = toServiceAddress(cart.shippingAddress, "shipping address", problems)
  const lines = toLineItems(cart.items, productIdSource)
  if (!address || !lines.length) {
    return null
  }
  // Case and spacing change nothing for the courier: "SW1A 2AA" and "sw1a2aa" are one state.
  const plain = (value: string | undefined) => (value ?? "").toLowerCase().replace(/\s+/g, "")
  const state = {
    address: [address.line1, address.line2, address.city, address.postcode, address.country].map(plain),
    lines: lines
      .map((line) => [line.merchantProductId, line.quantity] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  }
  return createHash("sha256").update(JSON.stringify(state)).digest("base64url").slice(0, 22)
}

/**
 * What the shopper pays for the cart's method now, while its quote is younger
 * than `keepMs` and the cart is in the state it was quoted for (`cartStateOf`).
 * Not at the fallback price (the fallback prices it anyway), nor for a method
 * whose data records no state: a cart changed during an outage is priced anew.
 */
export function keptPrice(
  option: LastmileFulfillmentOption,
  chosen: ChosenMethod | undefined,
  { now, keepMs, state }: { now: number; keepMs: number; state: string | null }
): { amount: number; details: LastmileRateDetails } | undefined {
  const quotedAt = chosen?.quoted_at ? Date.parse(chosen.quoted_at) : NaN
  const keeps = chosen && !chosen.fallback && Number.isFinite(chosen.amount) && now - quotedAt <= keepMs
  if (!keeps || !state || chosen.quoted_for !== state) {
    return undefined
  }
  return {
    amount: chosen.amount,
    details: describeStandIn(option, {
      kind: "kept",
      rateCode: chosen.rate_code,
      name: chosen.rate_name,
      description: chosen.description,
      window: chosen.window,
    }),
  }
}

/** The merchant's outage price, for delivery options only: a store's stock cannot be known without the service. */
export function fallbackAmount(
  option: LastmileFulfillmentOption,
  result: PricingResult,
  currency: string,
  amounts: Record<string, number>
): number | undefined {
  if (result.ok || result.reason !== "service_unavailable" || option.kind !== "delivery") {
    return undefined
  }
  return amounts[currency.toLowerCase()]
}
