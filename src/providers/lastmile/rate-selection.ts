/**
 * Which rate of a quote prices which option. Delivery options read their rate
 * by delivery type; each store's collection option reads the SVC_COL rate of
 * that store. A rate is never guessed: when the quote does not say clearly
 * which store a collection rate belongs to, that rate is not offered.
 */
import type { ServiceQuote, ServiceRate } from "../../lib/service-client"
import { COLLECTION_RATE_CODE } from "./fulfillment-options"
import { type RatePrice, readRatePrice } from "./money"

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
}

const EXPLICIT_STORE_FIELDS = ["merchantLocationId", "externalLocationId"] as const

function explicitStoreId(rate: ServiceRate): string | undefined {
  for (const field of EXPLICIT_STORE_FIELDS) {
    const value = rate[field]
    if (typeof value === "string" && value) {
      return value
    }
  }
  return undefined
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

/**
 * Attributes each SVC_COL rate to a store: by an explicit identifier on the
 * rate when there is one, else by the store's name, street or postcode in the
 * rate's name and description when exactly one store matches.
 */
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

/**
 * The rate of a delivery type: one that names the type (`deliveryType`, or a
 * rateCode equal to it); failing that, the only delivery rate of a quote
 * requested for that very type.
 */
export function selectDeliveryRate(
  quote: ServiceQuote,
  deliveryType: string,
  requestedDeliveryType: string,
  cartCurrency: string
): RateChoice {
  if (!quote.rates.length) {
    return { ok: false, reason: "route_not_served", detail: "the service cannot serve this address" }
  }
  const delivery = quote.rates.filter((r) => r.rateCode !== COLLECTION_RATE_CODE)
  const named = delivery.filter((r) => r.deliveryType === deliveryType || r.rateCode === deliveryType)
  const rate = named[0] ?? (delivery.length === 1 && deliveryType === requestedDeliveryType ? delivery[0] : undefined)
  if (!rate) {
    return { ok: false, reason: "rate_missing", detail: `the quote has no ${deliveryType} rate` }
  }
  return priced(rate, cartCurrency)
}

export function selectCollectionRate(
  quote: ServiceQuote,
  storeExternalId: string,
  cartCurrency: string,
  stores: StoreDescription[] = []
): RateChoice {
  if (!quote.rates.length) {
    return { ok: false, reason: "route_not_served", detail: "the service cannot serve this address" }
  }
  const { byStore, unattributed } = attributeCollectionRates(quote, stores)
  const rate = byStore.get(storeExternalId)
  if (rate) {
    return priced(rate, cartCurrency)
  }
  if (unattributed.some((u) => u.candidates.includes(storeExternalId) || !u.candidates.length)) {
    return {
      ok: false,
      reason: "store_ambiguous",
      detail: "a collection rate could not be attributed to exactly one store",
    }
  }
  return { ok: false, reason: "rate_missing", detail: `the quote offers no collection from ${storeExternalId}` }
}

/** A readable sentence from an error of any shape. */
export function describeRateError(error: unknown): string {
  if (typeof error === "string") {
    return error
  }
  if (error && typeof error === "object") {
    const record = error as Record<string, unknown>
    for (const key of ["message", "reason", "description", "code"]) {
      if (typeof record[key] === "string") {
        return record[key] as string
      }
    }
    return JSON.stringify(error).slice(0, 200)
  }
  return "unavailable"
}
