/**
 * Canned answers made by the plugin's own code: the rates route's JSON from
 * `describePricing` and `toOptionRate`, an order's fulfillment from the
 * contracts. A change of the server's shapes changes (or breaks) these.
 */
import { type OptionPrice, type ShownOption, toOptionRate } from "../../lib/checkout/option-rate"
import type { LastmileRatesResponse as RouteRatesResponse } from "../../lib/checkout/option-rate"
import {
  LASTMILE_DATA_MARKER,
  type LastmileFulfillmentData,
  type LastmileShippingMethodData,
  PENDING_BOOKING,
  toFulfillmentData,
  toLabels,
} from "../../lib/contracts/plugin-data"
import { buildFulfillmentOptions, optionKindOf } from "../../lib/contracts/fulfillment-options"
import type { PricingResult } from "../../lib/checkout/pricing-result"
import { describePricing, describeStandIn } from "../../lib/checkout/rate-details"
import type { ServiceRate } from "../../lib/contracts/service-shapes"
import { LASTMILE_PROVIDER_ID, type LastmileFetchInit, type LastmileSdk } from "medusa-plugin-lastmile-storefront"

export const [NEXT_DAY, COLLECTION] = buildFulfillmentOptions(["NEXT_DAY"])
export const [SAME_DAY] = buildFulfillmentOptions(["SAME_DAY"])

/** 2026-07-24 10:00 in London; the windows below are the next day's. */
export const NOW = new Date("2026-07-24T09:00:00.000Z")

export const ECO: ServiceRate = {
  rateCode: "ND-ECO",
  name: "Next day eco",
  description: "By cargo bike",
  price: { amount: 395, currency: "GBP" },
  window: { from: "2026-07-25T11:00:00.000Z", to: "2026-07-25T21:00:00.000Z" },
  co2Savings: 1.1,
}
export const STANDARD: ServiceRate = {
  rateCode: "ND-STD",
  name: "Next day",
  price: { amount: 495, currency: "GBP" },
  window: { from: "2026-07-25T07:00:00.000Z", to: "2026-07-25T19:00:00.000Z" },
  co2Savings: 0.42,
}
export const MORNING: ServiceRate = {
  rateCode: "ND-AM",
  name: "Next day morning",
  price: { amount: 695, currency: "GBP" },
  error: { message: "No van has room for a morning slot." },
}

export const CAMDEN_READINESS = "Camden, 12 Camden High St, NW1 0JH. Ready to collect from 14:00 today."

const nextDayPriced: PricingResult = {
  ok: true,
  rate: ECO,
  price: { amount: 395, currency: "GBP" },
  rates: {
    offered: [
      { rate: ECO, price: { amount: 395, currency: "GBP" } },
      { rate: STANDARD, price: { amount: 495, currency: "GBP" } },
    ],
    refused: [{ rate: MORNING, reason: "rate_error", detail: "No van has room for a morning slot." }],
  },
  eligibility: "PARTIAL",
}

function option(
  id: string,
  name: string,
  fulfillmentOptionId: string,
  amount: number | null,
  lastmile: ReturnType<typeof describePricing>,
  stockLocation: ShownOption["location"] = null
): { shown: ShownOption; price: OptionPrice } {
  return {
    shown: { id, name, kind: optionKindOf(fulfillmentOptionId) ?? "delivery", location: stockLocation },
    price: { calculated_amount: amount, is_calculated_price_tax_inclusive: true, lastmile },
  }
}

const camden = option(
  "so_camden",
  "Collect from Camden",
  COLLECTION.id,
  0,
  describePricing(COLLECTION, {
    ok: true,
    rate: { rateCode: "SVC_COL", name: "Camden", description: CAMDEN_READINESS, price: 0 },
    price: { amount: 0, currency: "GBP" },
    merchantLocationId: "store-camden",
    eligibility: "PARTIAL",
  }),
  {
    id: "sloc_camden",
    name: "Camden",
    address: { address_1: "12 Camden High St", city: "London", postal_code: "NW1 0JH", country_code: "gb" },
  }
)

const soho = option(
  "so_soho",
  "Collect from Soho",
  COLLECTION.id,
  null,
  describePricing(COLLECTION, { ok: false, reason: "rate_missing", detail: "no SVC_COL rate for store-soho" }),
  { id: "sloc_soho", name: "Soho", address: null }
)

const sameDay = option(
  "so_same_day",
  "Same day delivery",
  SAME_DAY.id,
  null,
  describePricing(SAME_DAY, { ok: false, reason: "route_not_served", detail: "no rates" })
)

/** What the route answers, built the way the route builds it. */
export function ratesResponse(options: { shown: ShownOption; price: OptionPrice }[]): RouteRatesResponse {
  return {
    cart_id: "cart_1",
    currency_code: "gbp",
    eligibility: "PARTIAL",
    rates: options.map((o) => toOptionRate(o.shown, o.price, "gbp")),
  }
}

/** A cart with everything the quote needs: two next-day rates and a refused one, a store that collects, one that does not, and a route same day does not serve. */
export const LIVE_RATES = ratesResponse([
  option("so_next_day", "Next day delivery", NEXT_DAY.id, 3.95, describePricing(NEXT_DAY, nextDayPriced)),
  sameDay,
  camden,
  soho,
])

/** The service is down: delivery at the merchant's fallback amount, collection unavailable. */
export const OUTAGE_RATES = ratesResponse([
  option("so_next_day", "Next day delivery", NEXT_DAY.id, 6, describeStandIn(NEXT_DAY, { kind: "fallback" })),
  option(
    "so_camden",
    "Collect from Camden",
    COLLECTION.id,
    null,
    describePricing(COLLECTION, { ok: false, reason: "service_unavailable", detail: "503", error: null })
  ),
])

/**
 * The service failed for a moment after the shopper chose "Next day" at
 * £4.95: that option keeps its price (the cart's method amount), same day is
 * at the merchant's fallback, and the store cannot be confirmed.
 */
export const KEPT_RATES = ratesResponse([
  option(
    "so_next_day",
    "Next day delivery",
    NEXT_DAY.id,
    4.95,
    describeStandIn(NEXT_DAY, {
      kind: "kept",
      rateCode: STANDARD.rateCode,
      name: STANDARD.name,
      description: null,
      window: STANDARD.window ?? null,
    })
  ),
  option("so_same_day", "Same day delivery", SAME_DAY.id, 6, describeStandIn(SAME_DAY, { kind: "fallback" })),
  option(
    "so_camden",
    "Collect from Camden",
    COLLECTION.id,
    null,
    describePricing(COLLECTION, { ok: false, reason: "service_unavailable", detail: "503", error: null })
  ),
])

export const PHONE_MISSING = "Enter a phone number so the courier can reach you."

/** The cart has no phone number yet: nothing can be quoted. */
export const INCOMPLETE_RATES = ratesResponse([
  option(
    "so_next_day",
    "Next day delivery",
    NEXT_DAY.id,
    null,
    describePricing(NEXT_DAY, {
      ok: false,
      reason: "input_incomplete",
      detail: PHONE_MISSING,
      problems: [{ field: "shipping_address.phone", message: PHONE_MISSING }],
    })
  ),
])

/** A shipping method's data as `validateFulfillmentData` stored it before 0.2 (still read on older orders). */
export function methodData(overrides: Partial<LastmileShippingMethodData> = {}): LastmileShippingMethodData {
  return {
    optionId: NEXT_DAY.id,
    kind: "delivery",
    deliveryType: "NEXT_DAY",
    rateCode: "ND-STD",
    rateName: "Next day",
    rateChosen: true,
    stockLocationId: null,
    merchantLocationId: null,
    phoneNumber: "+447911123456",
    description: null,
    window: { from: "2026-07-25T07:00:00.000Z", to: "2026-07-25T19:00:00.000Z" },
    quotedAmount: 495,
    quotedCurrency: "GBP",
    quotedAt: "2026-07-24T09:00:00.000Z",
    fallback: false,
    ...overrides,
  }
}

/** A shipping method's data as the provider writes it since 0.2: only what the shopper is shown. */
export function currentMethodData(overrides: Partial<LastmileShippingMethodData> = {}): LastmileShippingMethodData {
  return {
    provider: LASTMILE_DATA_MARKER,
    kind: "delivery",
    rateCode: "ND-ECO",
    rateName: "Next day eco",
    rateChosen: true,
    description: "By cargo bike",
    window: { from: "2026-07-25T11:00:00.000Z", to: "2026-07-25T21:00:00.000Z" },
    quotedAt: "2026-07-24T09:00:00.000Z",
    fallback: false,
    ...overrides,
  }
}

export const CAMDEN_STORE = {
  name: "Camden",
  address: {
    address_1: "12 Camden High St",
    address_2: null,
    city: "London",
    postal_code: "NW1 0JH",
    country_code: "gb",
  },
}

/** A collection method since 0.2: the store's name and address, its readiness text as the description. */
export function currentCollectionData(overrides: Partial<LastmileShippingMethodData> = {}): LastmileShippingMethodData {
  return currentMethodData({
    kind: "collection",
    rateCode: "SVC_COL",
    rateName: "Click and collect",
    rateChosen: false,
    description: "Ready to collect from 14:00 today.",
    window: null,
    store: CAMDEN_STORE,
    ...overrides,
  })
}

/** A fulfillment booked since 0.2, its data made by the contracts' `toFulfillmentData`. */
export function currentFulfillment(
  shown: Parameters<typeof toFulfillmentData>[1],
  task: Parameters<typeof toFulfillmentData>[0] = {
    taskId: 4242,
    trackingId: "LM-4242",
    trackingUrl: "https://track.example.com/LM-4242",
    status: { value: "NOT_STARTED" },
  }
) {
  return {
    id: "ful_1",
    provider_id: LASTMILE_PROVIDER_ID,
    data: toFulfillmentData(task, { bookedAt: new Date("2026-07-24T09:00:02.000Z"), ...shown }),
    shipped_at: null,
    delivered_at: null,
    canceled_at: null,
    created_at: "2026-07-24T09:00:01.000Z",
  }
}

/** A fulfillment whose booking is under way: what the provider returns before the booking replaces it. */
export function pendingFulfillment() {
  return {
    id: "ful_1",
    provider_id: LASTMILE_PROVIDER_ID,
    data: { provider: LASTMILE_DATA_MARKER, status: PENDING_BOOKING },
    shipped_at: null,
    delivered_at: null,
    canceled_at: null,
    created_at: "2026-07-24T09:00:01.000Z",
  }
}

/** A booked fulfillment as the booking left it before 0.2: data and labels from the contracts. */
export function bookedFulfillment(overrides: { id?: string; created_at?: string } = {}) {
  const data: LastmileFulfillmentData = {
    taskId: 4242,
    trackingId: "LM-4242",
    trackingUrl: "https://track.example.com/LM-4242",
    status: "NOT_STARTED",
    rateCode: "ND-STD",
    deliveryType: "NEXT_DAY",
    bookedAt: "2026-07-24T09:00:02.000Z",
  }
  return {
    id: overrides.id ?? "ful_1",
    provider_id: LASTMILE_PROVIDER_ID,
    data,
    labels: toLabels(data),
    shipped_at: null,
    delivered_at: null,
    canceled_at: null,
    created_at: overrides.created_at ?? "2026-07-24T09:00:01.000Z",
  }
}

/** A stand-in for js-sdk's `Medusa` that records each request and answers from `answer`. */
export function fakeSdk(answer: (path: string, init?: LastmileFetchInit) => unknown) {
  const calls: { path: string; init?: LastmileFetchInit }[] = []
  const sdk: LastmileSdk = {
    client: {
      async fetch<T>(path: string, init?: LastmileFetchInit): Promise<T> {
        calls.push({ path, init })
        return answer(path, init) as T
      },
    },
  }
  return { sdk, calls }
}
export const pricedOption = option
