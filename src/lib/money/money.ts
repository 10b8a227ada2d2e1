/**
 * Amounts between the service's minor units and Medusa's major units, by each currency's ISO 4217 exponent
 * (decision 3).
 */
import type { ServiceMoney } from "../contracts/service-shapes"

const exponents = new Map<string, number>()

export function currencyExponent(currencyCode: string): number {
  const code = currencyCode.toUpperCase()
  let exponent = exponents.get(code)
  if (exponent === undefined) {
    exponent = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
      .maximumFractionDigits as number
    exponents.set(code, exponent)
  }
  return exponent
}

/** 495 GBP minor → 4.95; 1500 JPY → 1500; 1250 KWD → 1.25. */
export function minorToMajor(amount: number, currencyCode: string): number {
  const exponent = currencyExponent(currencyCode)
  return Number((amount / 10 ** exponent).toFixed(exponent))
}

/** 4.95 GBP → 495; the inverse of minorToMajor. */
export function majorToMinor(amount: number, currencyCode: string): number {
  return Math.round(amount * 10 ** currencyExponent(currencyCode))
}

export interface RatePrice {
  /** Minor units of `currency`. */
  amount: number
  currency: string
}

/**
 * A rate's price as `{amount, currency}` or, as in the spec's collection
 * example, a bare number, which is taken to be in the cart's currency.
 * Returns null for a price that cannot be read.
 */
export function readRatePrice(price: ServiceMoney | undefined, cartCurrency: string): RatePrice | null {
  if (price === undefined) {
    return null
  }
  if (typeof price === "number") {
    return Number.isFinite(price) && price >= 0 ? { amount: price, currency: cartCurrency.toUpperCase() } : null
  }
  if (!Number.isFinite(price.amount) || price.amount < 0) {
    return null
  }
  return { amount: price.amount, currency: price.currency.toUpperCase() }
}

/** An amount in major units as a shopper reads it: 4.95 GBP → "£4.95". */
export function formatMajor(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).format(amount)
  } catch {
    return `${amount} ${currency.toUpperCase()}`
  }
}

/** An amount in minor units as a shopper reads it: 495 GBP → "£4.95". */
export function formatMinor(amount: number, currency: string): string {
  try {
    return formatMajor(minorToMajor(amount, currency), currency)
  } catch {
    return `${amount} (minor units)`
  }
}
