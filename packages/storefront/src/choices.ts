/**
 * What a delivery step offers: one choice per delivery rate, one per store, and what cannot be offered; each choice
 * carries what choosing it sends, so one click is one request.
 */
import type { LastmileWindow } from "./contract.js"
import type { LastmileStoreAddress } from "./types.js"

/** The provider id of a host that registers the provider with `id: "lastmile"`, as the plugin's README does. */
export const LASTMILE_PROVIDER_ID = "lastmile_lastmile"

/** Whether a provider id is lastmile's, whatever id the host registered the provider under (`lastmile_<id>`). */
export function isLastmileProviderId(providerId: string | null | undefined): boolean {
  return !!providerId?.startsWith("lastmile_")
}

/** What choosing sends: the option, and for one delivery rate among several its code. */
export interface LastmileChoiceRef {
  shippingOptionId: string
  /** A delivery rate's code (`data.rate_code`); null chooses the option at its own price (a store, or the option's rule). */
  rateCode: string | null
}

export interface LastmileChoiceBase extends LastmileChoiceRef {
  /** Unique within the step: the value of a radio button. */
  key: string
  /** The shipping option's name, as the merchant named it. */
  optionName: string
  /** Major units of `currencyCode`. */
  amount: number
  currencyCode: string
  isTaxInclusive: boolean
  /** The merchant's fallback price while live prices are unavailable: show it as an estimate. */
  estimate: boolean
  /**
   * The price the cart's method keeps while live prices are unavailable for a
   * moment: what the cart is charged for this choice, not an estimate.
   */
  kept: boolean
  /** Words for beside the price when it is not a live one: "Estimated price", "Price as chosen"; null when live. */
  priceNote: string | null
  description: string | null
  window: LastmileWindow | null
  priceText: string
  windowText: string | null
  /**
   * The choice as one sentence, for a screen reader (the row's accessible name): its name, price, window and CO₂
   * saving, or a store's address, then its text ("Next day eco, £3.95, delivered tomorrow between 12:00 and 22:00,
   * saving 1.1 kg CO₂. By cargo bike.").
   */
  spokenText: string
}

export interface LastmileDeliveryChoice extends LastmileChoiceBase {
  kind: "delivery"
  /** The rate's name, else the option's. */
  name: string
  co2Savings: number | null
  co2Text: string | null
  /** The rate the option's `delivery_rate_rule` picks, which `amount` of the option prices. */
  isDefault: boolean
}

export interface LastmileCollectionChoice extends LastmileChoiceBase {
  kind: "collection"
  rateCode: null
  /** The stock location's name, else the option's. */
  storeName: string
  /** The same as `storeName`, so a list of choices can be rendered by `name` alone. */
  name: string
  address: LastmileStoreAddress | null
  stockLocationId: string | null
  /** The store's id at the service. */
  merchantLocationId: string | null
  /**
   * How far the store is from the shopper, in kilometres, when the rates were asked `near` the shopper and the
   * store's position is known; else null. Stores come nearest first.
   */
  distanceKm: number | null
  /** The distance as shown: "1.2 km" (or in miles, with `distanceUnit: "mile"`); null without one. */
  distanceText: string | null
  /**
   * The store's own words for collecting there ("Ask at the customer service desk, upstairs"), as the merchant wrote
   * them; null without any. Not part of `spokenText` (they can be long): make them the row's description.
   */
  instructions: string | null
}

export type LastmileChoice = LastmileDeliveryChoice | LastmileCollectionChoice

export interface LastmileUnavailableOption {
  kind: "delivery" | "collection"
  key: string
  shippingOptionId: string
  /** Set when one rate of an offered delivery option is refused. */
  rateCode: string | null
  name: string
  /** Why, in words for the shopper (e.g. "Enter a phone number so the courier can reach you."). */
  reason: string
  /** The machine-readable cause of an option (`input_incomplete`, `service_unavailable`, …); null for a rate. */
  code: string | null
  /** For `input_incomplete`: the details to fix (`shipping_address.phone`, `shipping_address`, `email`, …). */
  fields: string[]
}

export function choiceKey(choice: LastmileChoiceRef): string {
  return choice.rateCode === null ? choice.shippingOptionId : `${choice.shippingOptionId}#${choice.rateCode}`
}
