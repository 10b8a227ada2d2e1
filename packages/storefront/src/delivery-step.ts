/**
 * The rates route's JSON as a checkout's delivery step: a choice per delivery rate and per store, each priced as the
 * cart is charged, and what cannot be offered with its reason in the shopper's words, each reason said once.
 */
import {
  type LastmileChoice,
  type LastmileChoiceBase,
  type LastmileChoiceRef,
  type LastmileCollectionChoice,
  type LastmileDeliveryChoice,
  type LastmileUnavailableOption,
  choiceKey,
  isLastmileProviderId,
} from "./choices.js"
import { ESTIMATE_NOTE, lastmileKindOf, readChosenMethod, text } from "./chosen-method.js"
import type {
  LastmileDeliveryRate,
  LastmileLostChoice,
  LastmileOptionRate,
  LastmileRatesResponse,
  LastmileWindow,
} from "./contract.js"
import { type LastmileFormatOptions, formatAmount, formatCo2Savings, formatDistance, formatWindow } from "./format.js"
import { readStoreAddress, storeAddressUnlessIn } from "./store-address.js"
import { spokenChoiceText, spokenOfferText } from "./spoken-text.js"
import { type LastmileStoreList, listStores } from "./store-list.js"
import type { LastmileCartLike, LastmileCartShippingMethod } from "./types.js"
import { type LastmileUnavailableSummary, summariseUnavailable } from "./unavailable-reasons.js"

/** Whether one of Medusa's shipping options (`GET /store/shipping-options`) is lastmile's, so a step lists it once. */
export function isLastmileShippingOption(option: { provider_id?: string | null }): boolean {
  return isLastmileProviderId(option.provider_id)
}

export interface LastmileDeliveryStep {
  cartId: string
  currencyCode: string
  delivery: LastmileDeliveryChoice[]
  /** Every store that can offer collection, nearest first (see `stores` for the ones to show). */
  collection: LastmileCollectionChoice[]
  /**
   * The stores to show: the nearest five, the chosen one wherever it is, the rest behind "Show all stores"
   * (`stores.showAllText`, `stores.more`); all of them with `showAllStores`. To show all on a click without building
   * the step again: `listStores(step, { showAll: true })`.
   */
  stores: LastmileStoreList
  unavailable: LastmileUnavailableOption[]
  /** The service serves only some of what was asked (`eligibility: PARTIAL`). */
  partial: boolean
  /**
   * What the shopper must add before anything can be quoted ("Enter a phone
   * number so the courier can reach you."), once for the whole step; each
   * option in `unavailable` also says it.
   */
  missingDetails: string | null
  /** The choice the cart's shipping method holds, when a cart was given. */
  selectedKey: string | null
  /**
   * The option (or rate) the cart's method holds when it can no longer be
   * offered, whether the route lists it as unavailable or no longer lists it
   * (`code: "not_listed"`): the shopper must choose again; say it with
   * `chosenUnavailableText`, whatever else is offered. Null when a cart was
   * not given, or its choice is offered.
   */
  chosenUnavailable: LastmileUnavailableOption | null
  /**
   * The choice the cart lost at its last change: the rate it held could not be priced for the cart as it is now
   * (say, the address changed during an outage), so the method was removed rather than charged another price under
   * its name. Show `lostChoice.reason`; the shopper chooses again. Null while the cart holds a shipping method.
   */
  lostChoice: LastmileLostChoice | null
  /** What cannot be offered, each reason once with what the shopper can do (see `summariseUnavailable`). */
  reasons: LastmileUnavailableSummary
  /**
   * The step in a few sentences, for a live region (`role="status"`) to announce when it changes: a choice lost or
   * no longer offered, what the step comes to, what can be chosen (from which price) and what the cart holds.
   */
  announcement: string
}

export interface LastmileDeliveryStepOptions extends LastmileFormatOptions {
  /** The cart, to tell which choice it holds; read with `fields=+shipping_methods.data` to tell rates apart. */
  cart?: LastmileCartLike | null
  /** Show every store in `stores`, not only the nearest (default false). */
  showAllStores?: boolean
  /** How many of the nearest stores `stores` shows before "Show all stores" (default 5). */
  nearestStores?: number
}

/** Shown for a rate the route refuses without saying why (the route always says; this keeps the type honest). */
const NO_REASON = "This option is not available right now."

/** Beside a price that is not a live quote's. */
export { ESTIMATE_NOTE }
export const KEPT_NOTE = "Price as chosen"

/** The delivery step of a cart from one `GET /store/lastmile/rates` answer. */
export function toDeliveryStep(
  response: LastmileRatesResponse,
  options: LastmileDeliveryStepOptions = {}
): LastmileDeliveryStep {
  const delivery: LastmileDeliveryChoice[] = []
  const collection: LastmileCollectionChoice[] = []
  const unavailable: LastmileUnavailableOption[] = []
  for (const option of response.rates) {
    if (!option.available || option.amount === null) {
      unavailable.push({
        kind: option.type,
        key: option.shipping_option_id,
        shippingOptionId: option.shipping_option_id,
        rateCode: null,
        name: optionDisplayName(option),
        reason: option.unavailable_reason ?? NO_REASON,
        code: option.unavailable_code,
        fields: option.unavailable_fields ?? [],
      })
    } else if (option.type === "collection") {
      collection.push(spoken(collectionChoice(option, option.amount, options), options))
    } else {
      const heldRateName = text(methodOf(options.cart, option.shipping_option_id)?.data?.rateName)
      const { choices, refused } = deliveryChoices(option, option.amount, heldRateName, options)
      delivery.push(...choices.map((choice) => spoken(choice, options)))
      unavailable.push(...refused)
    }
  }
  const step = {
    cartId: response.cart_id,
    currencyCode: response.currency_code,
    delivery,
    collection,
    unavailable,
    partial: response.eligibility === "PARTIAL",
    missingDetails: unavailable.find((u) => u.code === "input_incomplete")?.reason ?? null,
    reasons: summariseUnavailable({ delivery, collection, unavailable }),
  }
  const selectedKey = options.cart ? selectedChoiceKey(step, options.cart) : null
  const whole = {
    ...step,
    selectedKey,
    stores: listStores({ collection, selectedKey }, { showAll: options.showAllStores, limit: options.nearestStores }),
    chosenUnavailable: options.cart && selectedKey === null ? chosenUnavailable(unavailable, options.cart) : null,
    // The route says it only while the cart holds no method; a cart read since may hold a new choice.
    lostChoice: options.cart?.shipping_methods?.length ? null : (response.lost_choice ?? null),
  }
  return { ...whole, announcement: announcementOf(whole, options) }
}

/** What a live region says of the step: what went, what it comes to, what can be chosen and what is chosen. */
function announcementOf(step: Omit<LastmileDeliveryStep, "announcement">, format: LastmileFormatOptions): string {
  const choices: LastmileChoice[] = [...step.delivery, ...step.collection]
  const cheapest = step.delivery.length
    ? Math.min(...step.delivery.map((choice) => choice.amount))
    : Number.POSITIVE_INFINITY
  const counts = spokenOfferText({ delivery: step.delivery.length, collection: step.collection.length })
  const from =
    step.delivery.length > 1 && Number.isFinite(cheapest)
      ? ` Delivery from ${formatAmount(cheapest, step.currencyCode, format)}.`
      : ""
  const selected = choices.find((choice) => choice.key === step.selectedKey)
  return [
    step.lostChoice?.reason,
    step.chosenUnavailable ? chosenUnavailableText(step.chosenUnavailable) : null,
    step.reasons.verdict?.text,
    `${counts}${from}`,
    step.stores.more > 0 ? step.stores.summary : null,
    selected ? `Chosen: ${selected.spokenText}` : null,
  ]
    .filter(Boolean)
    .join(" ")
}

/** The cart's latest method for a shipping option. */
function methodOf(
  cart: LastmileCartLike | null | undefined,
  shippingOptionId: string
): LastmileCartShippingMethod | undefined {
  return [...(cart?.shipping_methods ?? [])].reverse().find((m) => m.shipping_option_id === shippingOptionId)
}

/** Said of an option, or a rate, that the cart holds and that can no longer be offered. */
export function chosenUnavailableText(option: Pick<LastmileUnavailableOption, "name">): string {
  return `${option.name}, your choice, cannot be offered any more. Please choose another option.`
}

/** Why a choice the cart holds is offered no more when the route no longer lists it at all. */
const NOT_LISTED_REASON = "This option is no longer offered for this cart."

/**
 * What the cart's latest lastmile method holds when no choice of the step is it: the option, or its picked rate, among
 * what cannot be offered; else (the route lists it no more: a rate the quote dropped, an option no longer offered for
 * the address) the method itself, so the step can always say that the choice went.
 */
function chosenUnavailable(
  unavailable: LastmileUnavailableOption[],
  cart: LastmileCartLike
): LastmileUnavailableOption | null {
  const method = [...(cart.shipping_methods ?? [])]
    .reverse()
    .find((m) => unavailable.some((u) => u.shippingOptionId === m.shipping_option_id))
  if (method) {
    const ofOption = unavailable.filter((u) => u.shippingOptionId === method.shipping_option_id)
    const rateCode = method.data?.rateCode
    const listed = ofOption.find((u) => u.rateCode === null) ?? ofOption.find((u) => u.rateCode === rateCode)
    if (listed) {
      return listed
    }
  }
  const held = [...(cart.shipping_methods ?? [])].reverse().find((m) => lastmileKindOf(m.data) !== null)
  const chosen = held ? readChosenMethod({ shipping_methods: [held] }) : null
  if (!held?.shipping_option_id || !chosen) {
    return null
  }
  const rateCode = chosen.kind === "delivery" ? text(held.data?.rateCode) : null
  return {
    kind: chosen.kind,
    key: choiceKey({ shippingOptionId: held.shipping_option_id, rateCode }),
    shippingOptionId: held.shipping_option_id,
    rateCode,
    name: chosen.name ?? chosen.optionName ?? (chosen.kind === "collection" ? "Collection" : "Delivery"),
    reason: NOT_LISTED_REASON,
    code: "not_listed",
    fields: [],
  }
}

function deliveryChoices(
  option: LastmileOptionRate,
  amount: number,
  heldRateName: string | null,
  format: LastmileFormatOptions
): { choices: LastmileDeliveryChoice[]; refused: LastmileUnavailableOption[] } {
  const offered = option.rates.filter((rate): rate is LastmileDeliveryRate & { amount: number } => {
    return rate.available && rate.amount !== null
  })
  const refused = option.rates
    .filter((rate) => !rate.available || rate.amount === null)
    .map((rate) => ({
      kind: "delivery" as const,
      key: choiceKey({ shippingOptionId: option.shipping_option_id, rateCode: rate.rate_code }),
      shippingOptionId: option.shipping_option_id,
      rateCode: rate.rate_code,
      name: rate.name ?? option.name,
      reason: rate.unavailable_reason ?? NO_REASON,
      code: null,
      fields: [],
    }))
  if (!offered.length) {
    // No live rates to pick from (the outage fallback, or a price kept through a blip): the option is the choice.
    const ref = { shippingOptionId: option.shipping_option_id, rateCode: null }
    // An estimate's text only says it is one: its price note, and the step's verdict, say so once.
    const description = option.fallback ? null : option.description
    return {
      choices: [
        {
          ...choiceBase(option, ref, amount, description, option.window, format),
          kind: "delivery",
          // A kept price is the held rate's: named as the shopper chose it, as the cart's summary names it.
          name: (option.kept ? (option.rate_name ?? heldRateName) : null) ?? option.name,
          co2Savings: option.co2_savings,
          co2Text: formatCo2Savings(option.co2_savings, format),
          isDefault: true,
        },
      ],
      refused,
    }
  }
  const choices = offered.map((rate, index): LastmileDeliveryChoice => {
    const ref = { shippingOptionId: option.shipping_option_id, rateCode: rate.rate_code }
    return {
      ...choiceBase(option, ref, rate.amount, rate.description, rate.window, format),
      kind: "delivery",
      name: rate.name ?? option.name,
      co2Savings: rate.co2_savings,
      co2Text: formatCo2Savings(rate.co2_savings, format),
      // The route lists the rule's pick first.
      isDefault: index === 0,
    }
  })
  return { choices, refused }
}

function collectionChoice(
  option: LastmileOptionRate,
  amount: number,
  format: LastmileFormatOptions
): LastmileCollectionChoice {
  const ref = { shippingOptionId: option.shipping_option_id, rateCode: null }
  const storeName = optionDisplayName(option)
  return {
    ...choiceBase(option, ref, amount, option.description, option.window, format),
    kind: "collection",
    rateCode: null,
    storeName,
    name: storeName,
    address: readStoreAddress(option.stock_location?.address),
    stockLocationId: option.stock_location_id,
    merchantLocationId: option.merchant_location_id,
    distanceKm: distanceOf(option.distance_km),
    distanceText: formatDistance(distanceOf(option.distance_km), format),
    instructions: text(option.instructions),
  }
}

/** A distance the route gave (absent from older plugins, null without a position). */
function distanceOf(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null
}

function choiceBase(
  option: LastmileOptionRate,
  ref: LastmileChoiceRef,
  amount: number,
  description: string | null,
  window: LastmileWindow | null,
  format: LastmileFormatOptions
): LastmileChoiceBase {
  return {
    ...ref,
    key: choiceKey(ref),
    optionName: option.name,
    amount,
    currencyCode: option.currency_code,
    isTaxInclusive: option.is_tax_inclusive,
    estimate: option.fallback,
    kept: option.kept,
    priceNote: priceNoteOf(option),
    description,
    window,
    priceText: formatAmount(amount, option.currency_code, format),
    windowText: formatWindow(window, format),
    // Said once the choice is whole (its name, CO₂ or address): see `spoken`.
    spokenText: "",
  }
}

/** The choice with its sentence for a screen reader. */
function spoken<T extends LastmileChoice>(choice: T, format: LastmileFormatOptions): T {
  const extra =
    choice.kind === "delivery"
      ? { co2Text: choice.co2Text }
      : { addressText: storeAddressUnlessIn(choice.address, choice.description), distanceKm: choice.distanceKm }
  return { ...choice, spokenText: spokenChoiceText({ ...choice, ...extra }, format) }
}

function priceNoteOf(option: Pick<LastmileOptionRate, "fallback" | "kept">): string | null {
  if (option.kept) {
    return KEPT_NOTE
  }
  return option.fallback ? ESTIMATE_NOTE : null
}

/** A store by its stock location's name; a delivery option by its own. */
function optionDisplayName(option: LastmileOptionRate): string {
  return option.type === "collection" ? (option.stock_location?.name ?? option.name) : option.name
}

/**
 * The choice a cart's lastmile shipping method holds: the store, or the
 * delivery rate by its code, else by its name (the service may mint new codes
 * per quote), else, unless the shopper picked that rate, the option's default
 * rate (a method priced by the rule, or whose data was not read).
 */
export function selectedChoiceKey(
  step: Pick<LastmileDeliveryStep, "delivery" | "collection">,
  cart: LastmileCartLike
): string | null {
  const choices: LastmileChoice[] = [...step.delivery, ...step.collection]
  for (const method of [...(cart.shipping_methods ?? [])].reverse()) {
    const ofOption = choices.filter((choice) => choice.shippingOptionId === method.shipping_option_id)
    if (!ofOption.length) {
      continue
    }
    // A store has one choice; a kept price is, by definition, the choice the cart's method holds.
    const held = ofOption.find((choice) => choice.kind === "collection" || choice.kept)
    if (held) {
      return held.key
    }
    const rateCode = method.data?.rateCode
    const rateName = method.data?.rateName
    const match =
      ofOption.find((choice) => typeof rateCode === "string" && choice.rateCode === rateCode) ??
      ofOption.find((choice) => choice.kind === "delivery" && typeof rateName === "string" && choice.name === rateName)
    if (match) {
      return match.key
    }
    // A rate the shopper picked is never stood in for by another; one the rule picked is the rule's pick again.
    const picked = method.data?.rateChosen === true
    return picked ? null : (ofOption.find((choice) => choice.kind === "delivery" && choice.isDefault)?.key ?? null)
  }
  return null
}
