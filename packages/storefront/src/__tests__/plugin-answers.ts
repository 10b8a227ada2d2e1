/**
 * The plugin's JSON as a storefront gets it, literal: the rates route's answers, the words of each refusal, method
 * and fulfillment data. The plugin's `storefront-contract` spec makes each with the plugin's own code.
 */
import type {
  LastmileCollectionView,
  LastmileFulfillmentData,
  LastmileOptionRate,
  LastmileOrderBookingResponse,
  LastmileRatesResponse,
  LastmileShippingMethodData,
  LastmileStoreView,
} from "../contract.js"

/** 2026-07-24 10:00 in London; the windows below are the next day's. */
export const NOW = new Date("2026-07-24T09:00:00.000Z")

export const PHONE_MISSING = "Enter a phone number so the courier can reach you."
export const CAMDEN_READINESS = "Camden, 12 Camden High St, NW1 0JH. Ready to collect from 14:00 today."
export const ECO_WINDOW = { from: "2026-07-25T11:00:00.000Z", to: "2026-07-25T21:00:00.000Z" }
export const STANDARD_WINDOW = { from: "2026-07-25T07:00:00.000Z", to: "2026-07-25T19:00:00.000Z" }
const ESTIMATED = "Delivery price estimated: live prices are unavailable right now."

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

export type Refusal = Pick<LastmileOptionRate, "unavailable_code" | "unavailable_reason" | "unavailable_fields">
const refusal = (code: string, reason: string, fields: string[] = []): Refusal => ({
  unavailable_code: code,
  unavailable_reason: reason,
  unavailable_fields: fields,
})
const both = (r: Refusal) => ({ delivery: r, collection: r })

/** What the route says of an option it cannot offer, by the plugin's cause, for a delivery option and a store. */
export const REFUSALS = {
  phone_missing: both(
    refusal("input_incomplete", "Enter a phone number so the courier can reach you.", ["shipping_address.phone"])
  ),
  phone_undiallable: both(
    refusal("input_incomplete", "Enter a phone number that can be dialled, with its country code if it is not local.", [
      "shipping_address.phone",
    ])
  ),
  postcode_missing: both(refusal("input_incomplete", "The shipping address needs a postcode.", ["shipping_address"])),
  name_and_phone_missing: both(
    refusal(
      "input_incomplete",
      "Enter the recipient's first and last name. Enter a phone number so the courier can reach you.",
      ["shipping_address.name", "shipping_address.phone"]
    )
  ),
  route_not_served: {
    delivery: refusal("route_not_served", "This service does not deliver to this address."),
    collection: refusal("route_not_served", "Collection is not offered for this address."),
  },
  service_unavailable: {
    delivery: refusal(
      "service_unavailable",
      "Live delivery prices are unavailable right now. Please try again in a moment."
    ),
    collection: refusal(
      "service_unavailable",
      "Collection cannot be confirmed right now. Please try again in a moment."
    ),
  },
  service_refused: both(
    refusal("service_refused", "This option is unavailable right now. Please choose another option.")
  ),
  rate_missing: {
    delivery: refusal("rate_missing", "This delivery option is not offered for this cart."),
    collection: refusal("rate_missing", "This store cannot offer collection for this cart."),
  },
  store_ambiguous: both(refusal("store_ambiguous", "Collection from this store cannot be confirmed right now.")),
  store_not_mapped: both(refusal("store_not_mapped", "Collection from this store cannot be confirmed right now.")),
  rate_code_invalid: both(refusal("rate_code_invalid", "data.rate_code must be…")),
  rate_error: both(refusal("rate_error", "No van has room.")),
  currency_mismatch: both(refusal("currency_mismatch", "This option is not available in the cart's currency.")),
  invalid_price: both(refusal("invalid_price", "This option could not be priced right now.")),
} satisfies Record<string, Record<"delivery" | "collection", Refusal>>

export type RefusalCause = keyof typeof REFUSALS

type Shown = Pick<LastmileOptionRate, "shipping_option_id" | "name" | "type"> & Partial<LastmileOptionRate>

/** One option as the route lists it: offered, priced by no rate, unless `shown` says more. */
export function optionRate(shown: Shown): LastmileOptionRate {
  return {
    rate_name: null,
    amount: null,
    currency_code: "gbp",
    is_tax_inclusive: true,
    description: null,
    window: null,
    co2_savings: null,
    stock_location_id: shown.stock_location?.id ?? null,
    stock_location: null,
    merchant_location_id: null,
    instructions: null,
    distance_km: null,
    available: true,
    unavailable_reason: null,
    unavailable_code: null,
    unavailable_fields: [],
    eligibility: null,
    fallback: false,
    kept: false,
    rates: [],
    quoted_at: null,
    ...shown,
  }
}

/** An option the route cannot offer, for `cause`. */
export function refusedOption(
  shown: Shown & { type: "delivery" | "collection" },
  cause: RefusalCause
): LastmileOptionRate {
  return optionRate({ ...shown, available: false, ...REFUSALS[cause][shown.type] })
}

export function ratesResponse(rates: LastmileOptionRate[]): LastmileRatesResponse {
  return { cart_id: "cart_1", currency_code: "gbp", eligibility: "PARTIAL", rates }
}

const nextDay = { shipping_option_id: "so_next_day", name: "Next day delivery", type: "delivery" } as const
const sameDay = { shipping_option_id: "so_same_day", name: "Same day delivery", type: "delivery" } as const
const camden = { shipping_option_id: "so_camden", name: "Collect from Camden", type: "collection" } as const

/** A cart with everything the quote needs: two next-day rates and a refused one, a store that collects, one that does not, and a route same day does not serve. */
export const LIVE_RATES = ratesResponse([
  optionRate({
    ...nextDay,
    rate_name: "Next day eco",
    amount: 3.95,
    description: "By cargo bike",
    window: ECO_WINDOW,
    co2_savings: 1.1,
    eligibility: "PARTIAL",
    rates: [
      {
        rate_code: "ND-ECO",
        name: "Next day eco",
        description: "By cargo bike",
        window: ECO_WINDOW,
        co2_savings: 1.1,
        amount: 3.95,
        available: true,
        unavailable_reason: null,
      },
      {
        rate_code: "ND-STD",
        name: "Next day",
        description: null,
        window: STANDARD_WINDOW,
        co2_savings: 0.42,
        amount: 4.95,
        available: true,
        unavailable_reason: null,
      },
      {
        rate_code: "ND-AM",
        name: "Next day morning",
        description: null,
        window: null,
        co2_savings: null,
        amount: null,
        available: false,
        unavailable_reason: "No van has room for a morning slot.",
      },
    ],
  }),
  refusedOption(sameDay, "route_not_served"),
  optionRate({
    ...camden,
    rate_name: "Camden",
    amount: 0,
    description: CAMDEN_READINESS,
    stock_location: {
      id: "sloc_camden",
      name: "Camden",
      address: { address_1: "12 Camden High St", city: "London", postal_code: "NW1 0JH", country_code: "gb" },
    },
    merchant_location_id: "store-camden",
    eligibility: "PARTIAL",
  }),
  refusedOption(
    {
      shipping_option_id: "so_soho",
      name: "Collect from Soho",
      type: "collection",
      stock_location: { id: "sloc_soho", name: "Soho", address: null },
    },
    "rate_missing"
  ),
])

/** An option priced at the merchant's fallback amount while the service is down. */
export const fallbackOption = (shown: Shown) =>
  optionRate({ ...shown, amount: 6, description: ESTIMATED, fallback: true })

/** The service is down: delivery at the merchant's fallback amount, collection unavailable. */
export const OUTAGE_RATES = ratesResponse([fallbackOption(nextDay), refusedOption(camden, "service_unavailable")])

/**
 * The service failed for a moment after the shopper chose "Next day" at
 * £4.95: that option keeps its price (the cart's method amount), same day is
 * at the merchant's fallback, and the store cannot be confirmed.
 */
export const KEPT_RATES = ratesResponse([
  optionRate({ ...nextDay, rate_name: "Next day", amount: 4.95, window: STANDARD_WINDOW, kept: true }),
  fallbackOption(sameDay),
  refusedOption(camden, "service_unavailable"),
])

/** The cart has no phone number yet: nothing can be quoted. */
export const INCOMPLETE_RATES = ratesResponse([refusedOption(nextDay, "phone_missing")])

/** Method data is read as Medusa stores it: what the package's types name, and whatever else older data holds. */
type StoredMethodData = LastmileShippingMethodData & Record<string, unknown>

/** A shipping method's data as the plugin stored it before 0.2 (still read on older orders). */
export function methodData(overrides: Partial<StoredMethodData> = {}): StoredMethodData {
  return {
    optionId: "lastmile-next-day",
    kind: "delivery",
    deliveryType: "NEXT_DAY",
    rateCode: "ND-STD",
    rateName: "Next day",
    rateChosen: true,
    stockLocationId: null,
    merchantLocationId: null,
    phoneNumber: "+447911123456",
    description: null,
    window: STANDARD_WINDOW,
    quotedAmount: 495,
    quotedCurrency: "GBP",
    quotedAt: "2026-07-24T09:00:00.000Z",
    fallback: false,
    ...overrides,
  }
}

/** A shipping method's data as the plugin writes it since 0.2: only what the shopper is shown. */
export function currentMethodData(overrides: Partial<StoredMethodData> = {}): StoredMethodData {
  return {
    provider: "lastmile",
    kind: "delivery",
    rateCode: "ND-ECO",
    rateName: "Next day eco",
    rateChosen: true,
    description: "By cargo bike",
    window: ECO_WINDOW,
    quotedAt: "2026-07-24T09:00:00.000Z",
    fallback: false,
    ...overrides,
  }
}

/** A collection method since 0.2: the store's name and address, its readiness text as the description. */
export function currentCollectionData(overrides: Partial<StoredMethodData> = {}): StoredMethodData {
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

/** A booked task as the service answered it. */
export interface BookedTask {
  taskId: number
  trackingId: string
  trackingUrl: string | null
  status?: { value: string }
}

export const TASK_4242: BookedTask = {
  taskId: 4242,
  trackingId: "LM-4242",
  trackingUrl: "https://track.example.com/LM-4242",
  status: { value: "NOT_STARTED" },
}

/** What a booking shows the shopper of its rate and store. */
export interface BookingShown {
  kind: "delivery" | "collection" | "return"
  rateName?: string | null
  window?: { from: string; to: string } | null
  store?: Pick<LastmileStoreView, keyof LastmileStoreView> | null
}

/** Fulfillment data as Medusa stores it: what the package's types name, and whatever else older data holds. */
type StoredBookingData = LastmileFulfillmentData & Record<string, unknown>

/** A fulfillment's data as the plugin writes it since 0.2, booked at 09:00:02. */
export function bookedData(shown: BookingShown, task: BookedTask = TASK_4242): StoredBookingData {
  return {
    provider: "lastmile",
    kind: shown.kind,
    taskId: task.taskId,
    trackingId: task.trackingId,
    trackingUrl: task.trackingUrl,
    status: task.status?.value ?? null,
    rateName: shown.rateName ?? null,
    window: shown.window ?? null,
    ...(shown.store ? { store: shown.store } : {}),
    bookedAt: "2026-07-24T09:00:02.000Z",
  }
}

const fulfillment = <D>(data: D) => ({
  id: "ful_1",
  provider_id: "lastmile_lastmile",
  data,
  shipped_at: null as string | null,
  delivered_at: null as string | null,
  canceled_at: null as string | null,
  created_at: "2026-07-24T09:00:01.000Z",
})

/** A fulfillment booked since 0.2. */
export function currentFulfillment(shown: BookingShown, task: BookedTask = TASK_4242) {
  return fulfillment(bookedData(shown, task))
}

/** A fulfillment whose booking is under way: what the provider returns before the booking replaces it. */
export function pendingFulfillment() {
  return fulfillment({ provider: "lastmile", status: "pending_booking" })
}

/** The data of a delivery booked before 0.2. */
export const OLDER_BOOKING = {
  taskId: 4242,
  trackingId: "LM-4242",
  trackingUrl: "https://track.example.com/LM-4242",
  status: "NOT_STARTED",
  rateCode: "ND-STD",
  deliveryType: "NEXT_DAY",
  bookedAt: "2026-07-24T09:00:02.000Z",
}

/** A delivery booked before 0.2, with its labels. */
export function bookedFulfillment(overrides: { id?: string; created_at?: string } = {}) {
  return {
    ...fulfillment({ ...OLDER_BOOKING }),
    labels: [{ tracking_number: "LM-4242", tracking_url: "https://track.example.com/LM-4242", label_url: "" }],
    ...overrides,
  }
}

/** The kind of a method by its older data's `optionId`, as the plugin tells it (a return's is no method's). */
export const OPTION_KINDS: [string, "delivery" | "collection" | "return" | null][] = [
  ["lastmile-next-day", "delivery"],
  ["lastmile-same-day", "delivery"],
  ["lastmile-collection", "collection"],
  ["lastmile-return", "return"],
  ["manual", null],
  ["", null],
]

/** What the rates route says of "Next day eco" at £3.95, lost when the address changed during an outage. */
export const LOST_ECO = {
  shipping_option_id: "so_next_day",
  kind: "delivery" as const,
  name: "Next day eco",
  rate_code: "ND-ECO",
  amount: 3.95,
  reason:
    "Your choice, Next day eco at £3.95, could not be kept when your cart changed. Live delivery prices are unavailable right now. Please choose again: the price shown is the shop's estimate.",
}

/** A store's own words for collecting there, as the merchant wrote them in the location widget. */
export const ISLINGTON_INSTRUCTIONS = "Ask at the customer service desk upstairs; step-free entrance on Gaskin Street."

/** Eight stores as the route lists them for the shopper at Angel, 51.532,-0.106 (`near`): nearest first, each with its distance. */
const NEAR_STORES: [name: string, street: string, postcode: string, distanceKm: number | null][] = [
  ["Islington", "88 Upper Street", "N1 0NP", 0.7],
  ["Shoreditch", "45 Great Eastern Street", "EC2A 3HP", 2.1],
  ["Covent Garden", "12 Long Acre", "WC2E 9LH", 2.6],
  ["Camden", "201 Camden High Street", "NW1 7BT", 2.9],
  ["Stratford", "2 The Broadway", "E15 4BQ", 7.1],
  ["Brixton", "4 Electric Avenue", "SW9 8JX", 7.9],
  ["Greenwich", "15 Nelson Road", "SE10 9JB", 8.6],
  // A store without a position keeps its place after those with one.
  ["Clapham", "60 Clapham High Street", "SW4 7UL", null],
]

/** A store's option as the route lists it, its distance when asked `near`, its instructions when the store has some. */
function storeRate(name: string, street: string, postcode: string, distanceKm: number | null, near: boolean) {
  const key = name.toLowerCase().replace(/\s+/g, "-")
  return optionRate({
    shipping_option_id: `so_${key}`,
    name: `Collect from ${name}`,
    type: "collection",
    rate_name: name,
    amount: 0,
    description: "Ready to collect from 14:00 today.",
    stock_location: {
      id: `sloc_${key}`,
      name: `${name} store`,
      address: { address_1: street, city: "London", postal_code: postcode, country_code: "gb" },
    },
    merchant_location_id: `store-${key}`,
    instructions: name === "Islington" ? ISLINGTON_INSTRUCTIONS : null,
    distance_km: near ? distanceKm : null,
    eligibility: "FULL",
  })
}

const nextDayEco = () =>
  optionRate({
    ...nextDay,
    rate_name: "Next day eco",
    amount: 3.95,
    window: ECO_WINDOW,
    rates: [
      {
        rate_code: "ND-ECO",
        name: "Next day eco",
        description: null,
        window: ECO_WINDOW,
        co2_savings: 1.1,
        amount: 3.95,
        available: true,
        unavailable_reason: null,
      },
    ],
  })

/** The rates asked `near` the shopper: one delivery, then eight stores nearest first, with their distances. */
export const NEAR_RATES: LastmileRatesResponse = {
  ...ratesResponse([nextDayEco(), ...NEAR_STORES.map(([n, s, p, d]) => storeRate(n, s, p, d, true))]),
  eligibility: "FULL",
}

/** The same rates asked without a position: no distances (the route orders the stores by the shopper's postcode). */
export const POSTCODE_RATES: LastmileRatesResponse = {
  ...ratesResponse([nextDayEco(), ...NEAR_STORES.map(([n, s, p, d]) => storeRate(n, s, p, d, false))]),
  eligibility: "FULL",
}

/** A collection at Camden, ready since 14:05 on 24 July; the store keeps it until closing on Friday 31 July. */
export const READY_AT_CAMDEN: LastmileCollectionView = {
  ready_at: "2026-07-24T13:05:00.000Z",
  collect_by: "2026-07-31T17:00:00.000Z",
  code: "ACE479",
  collected: false,
  expired: false,
  store: {
    name: "Camden",
    instructions: "Collect from the side door on Jamestown Road.",
    address: CAMDEN_STORE.address,
  },
  instructions: "Collect from the side door on Jamestown Road.",
}

/** What the booking route answers for a booked collection at `step`, with its collection once ready. */
export function collectionBooking(
  collection: LastmileCollectionView | null,
  step: "ready_for_collection" | null = collection ? "ready_for_collection" : null
): LastmileOrderBookingResponse {
  return { order_id: "order_1", booking: { state: "booked", books_on: "order_placed", step, collection } }
}
