/**
 * Which rate of a quote prices which option (decisions 5 and 10): a delivery option any delivery rate of its quote, a
 * store's collection option that store's SVC_COL rate; never a guess.
 */
import type { ServiceQuote, ServiceRate } from "../contracts/service-shapes"
import { COLLECTION_RATE_CODE } from "../contracts/fulfillment-options"
import { type RatePrice, readRatePrice } from "../money/money"

export type UnavailableReason =
  "route_not_served" | "rate_missing" | "rate_error" | "invalid_price" | "currency_mismatch" | "store_ambiguous"

export type RateChoice =
  { ok: true; rate: ServiceRate; price: RatePrice } | { ok: false; reason: UnavailableReason; detail: string }

/** What the plugin knows of a store, from GET /fulfilment-locations, to attribute collection rates. */
export interface StoreDescription {
  externalLocationId: string
  name?: string
  addressLine1?: string
  postcode?: string
  /** The store's hours as the service gives them (their shape is not shown), for a readiness on a closed date. */
  operatingHours?: unknown
}

function explicitStoreId(rate: ServiceRate): string | undefined {
  return [rate.merchantLocationId, rate.externalLocationId].find((v): v is string => typeof v === "string" && !!v)
}

/** Whether some collection rate names no store, so attributing it needs the store list. */
export function needsStoreDirectory(quote: ServiceQuote): boolean {
  return quote.rates.some((rate) => rate.rateCode === COLLECTION_RATE_CODE && !explicitStoreId(rate))
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
}

/** Each SVC_COL rate's store: its explicit id, else the one store whose name, street or postcode its text holds. */
export function attributeCollectionRates(
  quote: ServiceQuote,
  stores: StoreDescription[] = []
): { byStore: Map<string, ServiceRate>; unattributed: { rate: ServiceRate; candidates: string[] }[] } {
  const byStore = new Map<string, ServiceRate>()
  const unattributed: { rate: ServiceRate; candidates: string[] }[] = []
  for (const rate of quote.rates) {
    if (rate.rateCode !== COLLECTION_RATE_CODE) {
      continue
    }
    const explicit = explicitStoreId(rate)
    if (explicit) {
      byStore.set(explicit, rate)
      continue
    }
    const text = ` ${normalise(`${rate.name ?? ""} ${rate.description ?? ""}`)} `
    const candidates = stores.filter((store) =>
      [store.name, store.addressLine1, store.postcode].some((needle) => {
        const n = needle ? normalise(needle) : ""
        return n.length >= 3 && text.includes(` ${n} `)
      })
    )
    if (candidates.length === 1 && !byStore.has(candidates[0].externalLocationId)) {
      byStore.set(candidates[0].externalLocationId, rate)
    } else {
      unattributed.push({ rate, candidates: candidates.map((c) => c.externalLocationId) })
    }
  }
  // Two rates claiming one store is as ambiguous as one rate claiming two.
  return { byStore, unattributed }
}

function priced(rate: ServiceRate, cartCurrency: string): RateChoice {
  if (rate.error !== undefined && rate.error !== null && rate.error !== false) {
    return { ok: false, reason: "rate_error", detail: describeRateError(rate.error) }
  }
  const price = readRatePrice(rate.price, cartCurrency)
  if (!price) {
    return { ok: false, reason: "invalid_price", detail: `rate ${rate.rateCode} has no usable price` }
  }
  if (price.currency !== cartCurrency.toUpperCase()) {
    return {
      ok: false,
      reason: "currency_mismatch",
      detail: `rate is priced in ${price.currency}, the cart in ${cartCurrency.toUpperCase()}`,
    }
  }
  return { ok: true, rate, price }
}

/** How a delivery option is priced when the shopper has not chosen a rate. */
export type DeliveryRateRule = "cheapest" | "earliest"

export type OfferedRate = { rate: ServiceRate; price: RatePrice }

export type RefusedRate = { rate: ServiceRate; reason: UnavailableReason; detail: string }

/** A delivery option's rates in one quote: what can be offered (best first) and what cannot, with why. */
export type DeliveryRates = { offered: OfferedRate[]; refused: RefusedRate[] }

/** The rate a shipping method already names: by code, else by its name (codes may be minted per quote). */
export interface RateWish {
  rateCode?: string | null
  name?: string | null
  /** The shopper chose this rate: no other may stand in for it. */
  chosen?: boolean
}

export type DeliveryRateChoice = RateChoice & { rates?: DeliveryRates }

/**
 * Rate codes may be anything, so every rate but a collection one is of the quote's delivery type, unless it says
 * it is of another (a `deliveryType` field is not in the spec, but is honoured when sent).
 */
export function deliveryRates(
  quote: ServiceQuote,
  deliveryType: string,
  cartCurrency: string,
  rule: DeliveryRateRule = "cheapest"
): DeliveryRates {
  const offered: OfferedRate[] = []
  const refused: RefusedRate[] = []
  for (const rate of quote.rates) {
    if (
      rate.rateCode === COLLECTION_RATE_CODE ||
      (typeof rate.deliveryType === "string" && rate.deliveryType !== deliveryType)
    ) {
      continue
    }
    const choice = priced(rate, cartCurrency)
    if (choice.ok) {
      offered.push({ rate: choice.rate, price: choice.price })
    } else {
      refused.push({ rate, reason: choice.reason, detail: choice.detail })
    }
  }
  return { offered: offered.sort(rateOrder(rule)), refused }
}

/** Best first by the rule; ties fall to the other criterion, then the code, so the order never depends on the service's. */
function rateOrder(rule: DeliveryRateRule): (a: OfferedRate, b: OfferedRate) => number {
  const byPrice = (a: OfferedRate, b: OfferedRate) => a.price.amount - b.price.amount
  const byWindow = (a: OfferedRate, b: OfferedRate) => windowStart(a.rate) - windowStart(b.rate)
  const [first, second] = rule === "earliest" ? [byWindow, byPrice] : [byPrice, byWindow]
  return (a, b) =>
    first(a, b) || second(a, b) || (a.rate.rateCode < b.rate.rateCode ? -1 : a.rate.rateCode > b.rate.rateCode ? 1 : 0)
}

function windowStart(rate: ServiceRate): number {
  const start = rate.window ? Date.parse(rate.window.from) : NaN
  // A rate without a readable window sorts after every rate with one.
  return Number.isFinite(start) ? start : Number.MAX_SAFE_INTEGER
}

/** The rate a wish names in a list: the same code, else the only rate of the same name. */
export function findWishedRate<T extends { rate: ServiceRate }>(list: T[], wish: RateWish): T | undefined {
  const byCode = wish.rateCode ? list.find((r) => r.rate.rateCode === wish.rateCode) : undefined
  if (byCode || !wish.name) {
    return byCode
  }
  const name = wish.name.trim().toLowerCase()
  const named = list.filter((r) => (r.rate.name ?? "").trim().toLowerCase() === name)
  return named.length === 1 ? named[0] : undefined
}

/** The wished rate while offered; else, unless the shopper chose it, the best by the rule. Errored rates never are. */
export function selectDeliveryRate(
  quote: ServiceQuote,
  deliveryType: string,
  cartCurrency: string,
  options: { rule?: DeliveryRateRule; wish?: RateWish } = {}
): DeliveryRateChoice {
  if (!quote.rates.length) {
    return { ...NOT_SERVED }
  }
  const rates = deliveryRates(quote, deliveryType, cartCurrency, options.rule)
  const refusal = (refused: RefusedRate | undefined, missing: string): DeliveryRateChoice =>
    refused
      ? { ok: false, reason: refused.reason, detail: refused.detail, rates }
      : { ok: false, reason: "rate_missing", detail: missing, rates }
  const wish = options.wish
  if (wish && (wish.rateCode || wish.name)) {
    const offered = findWishedRate(rates.offered, wish)
    if (offered) {
      return { ok: true, ...offered, rates }
    }
    if (wish.chosen) {
      const missing = `the quote no longer offers the rate ${wish.name ?? wish.rateCode}`
      return refusal(findWishedRate(rates.refused, wish), missing)
    }
  }
  const best = rates.offered[0]
  return best ? { ok: true, ...best, rates } : refusal(rates.refused[0], `the quote has no ${deliveryType} rate`)
}

const NOT_SERVED = { ok: false, reason: "route_not_served", detail: "the service cannot serve this address" } as const

/** A store's collection rate; `unplaced`: some rate could not be placed with these stores, a fresher list may. */
export function selectCollectionRate(
  quote: ServiceQuote,
  storeExternalId: string,
  cartCurrency: string,
  stores: StoreDescription[] = []
): RateChoice & { unplaced?: boolean } {
  if (!quote.rates.length) {
    return { ...NOT_SERVED }
  }
  const { byStore, unattributed } = attributeCollectionRates(quote, stores)
  const rate = byStore.get(storeExternalId)
  if (rate) {
    return priced(rate, cartCurrency)
  }
  const unplaced = unattributed.length > 0
  return unattributed.some((u) => u.candidates.includes(storeExternalId) || !u.candidates.length)
    ? {
        ok: false,
        reason: "store_ambiguous",
        detail: "a collection rate could not be attributed to exactly one store",
        unplaced,
      }
    : { ok: false, reason: "rate_missing", detail: `the quote offers no collection from ${storeExternalId}`, unplaced }
}

const MAX_REASON_LENGTH = 200

const ERROR_TEXT_KEYS = ["message", "reason", "description", "detail", "title", "error", "errors", "code"] as const

/** The spec does not show `error`'s shape: the first text in the usual places, a code made readable, never raw JSON. */
export function describeRateError(error: unknown): string {
  return errorText(error, 0) ?? "The service cannot offer this rate right now."
}

function errorText(value: unknown, depth: number): string | undefined {
  if (depth > 3) {
    return undefined
  }
  if (typeof value === "string") {
    const text = value.trim()
    if (!text) {
      return undefined
    }
    // An error sent as JSON text is read as the structure it holds, never shown raw.
    if (/^[[{]/.test(text)) {
      try {
        return errorText(JSON.parse(text), depth + 1)
      } catch {
        return undefined
      }
    }
    if (/^<|<\/?[a-z][^>]*>/i.test(text)) {
      return undefined
    }
    if (/^[A-Za-z0-9]+(_[A-Za-z0-9]+)+$|^[A-Z]{3,}$/.test(text)) {
      return humaniseCode(text)
    }
    return text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH - 1)}…` : text
  }
  const inner = Array.isArray(value)
    ? value
    : value && typeof value === "object"
      ? ERROR_TEXT_KEYS.map((key) => (value as Record<string, unknown>)[key])
      : []
  for (const item of inner) {
    const text = errorText(item, depth + 1)
    if (text) {
      return text
    }
  }
  return undefined
}

function humaniseCode(code: string): string {
  const words = code.toLowerCase().replace(/_/g, " ")
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`
}
