/**
 * The client-facing contract is the storefront package's (decision 34): what the plugin answers and stores must fit
 * its types and be, to the letter, the JSON its specs read (`packages/storefront/src/__tests__/plugin-answers.ts`).
 */
import type {
  LastmileFulfillmentData as FulfillmentDataWritten,
  LastmileShippingMethodData as MethodDataWritten,
} from "../../contracts/plugin-data"
import {
  LASTMILE_DATA_MARKER,
  PENDING_BOOKING,
  readFulfillmentData,
  readShippingMethodData,
  toFulfillmentData,
  toLabels,
} from "../../contracts/plugin-data"
import {
  LASTMILE_PROVIDER_IDENTIFIER,
  type LastmileFulfillmentOption,
  buildFulfillmentOptions,
  optionKindOf,
} from "../../contracts/fulfillment-options"
import {
  type LastmileFulfillmentData,
  LASTMILE_PROVIDER_ID,
  type LastmileShippingMethodData,
  readChosenMethod,
  readOrderTracking,
} from "medusa-plugin-lastmile-storefront"
import * as answers from "../../../../packages/storefront/src/__tests__/plugin-answers"
import { type OptionPrice, type ShownOption, toOptionRate } from "../option-rate"
import type { PricingResult } from "../pricing-result"
import { describePricing, describeStandIn } from "../rate-details"
import type { ServiceRate } from "../../contracts/service-shapes"

type Fits<A, B> = [A] extends [B] ? true : false
const methodDataFits: Fits<MethodDataWritten, LastmileShippingMethodData> = true
const fulfillmentDataFits: Fits<FulfillmentDataWritten, LastmileFulfillmentData> = true

const [NEXT_DAY, COLLECTION] = buildFulfillmentOptions(["NEXT_DAY"])
const [SAME_DAY] = buildFulfillmentOptions(["SAME_DAY"])

type Refusal = PricingResult & { ok: false }
const incomplete = (
  detail: string,
  fields: ("shipping_address" | "shipping_address.name" | "shipping_address.phone")[]
) =>
  ({
    ok: false,
    reason: "input_incomplete",
    detail,
    problems: fields.map((field) => ({ field, message: detail })),
  }) as Refusal
const PHONE = ["shipping_address.phone"] as const

/** How the plugin comes to refuse an option for each cause the package's specs name. */
const CAUSES: Record<answers.RefusalCause, Refusal> = {
  phone_missing: incomplete(answers.PHONE_MISSING, [...PHONE]),
  phone_undiallable: incomplete(answers.REFUSALS.phone_undiallable.delivery.unavailable_reason!, [...PHONE]),
  postcode_missing: incomplete("The shipping address needs a postcode.", ["shipping_address"]),
  name_and_phone_missing: incomplete(`Enter the recipient's first and last name. ${answers.PHONE_MISSING}`, [
    "shipping_address.name",
    ...PHONE,
  ]),
  route_not_served: { ok: false, reason: "route_not_served", detail: "the service cannot serve this address" },
  service_unavailable: { ok: false, reason: "service_unavailable", detail: "503", error: null },
  service_refused: { ok: false, reason: "service_refused", detail: "401", error: null },
  rate_missing: { ok: false, reason: "rate_missing", detail: "" },
  store_ambiguous: { ok: false, reason: "store_ambiguous", detail: "two" },
  store_not_mapped: { ok: false, reason: "store_not_mapped", detail: "none" },
  rate_code_invalid: { ok: false, reason: "rate_code_invalid", detail: "data.rate_code must be…" },
  rate_error: { ok: false, reason: "rate_error", detail: "No van has room." } as Refusal,
  currency_mismatch: { ok: false, reason: "currency_mismatch", detail: "EUR" } as Refusal,
  invalid_price: { ok: false, reason: "invalid_price", detail: "no price" } as Refusal,
}

const ECO: ServiceRate = {
  rateCode: "ND-ECO",
  name: "Next day eco",
  description: "By cargo bike",
  price: { amount: 395, currency: "GBP" },
  window: answers.ECO_WINDOW,
  co2Savings: 1.1,
}
const STANDARD: ServiceRate = {
  rateCode: "ND-STD",
  name: "Next day",
  price: { amount: 495, currency: "GBP" },
  window: answers.STANDARD_WINDOW,
  co2Savings: 0.42,
}
const MORNING: ServiceRate = {
  rateCode: "ND-AM",
  name: "Next day morning",
  price: { amount: 695, currency: "GBP" },
  error: { message: "No van has room for a morning slot." },
}

/** An option as the rates route builds its row: the option shown, and the provider's price of it. */
function routeRow(
  id: string,
  name: string,
  option: LastmileFulfillmentOption,
  amount: number | null,
  lastmile: OptionPrice["lastmile"],
  location: ShownOption["location"] = null
) {
  const shown: ShownOption = { id, name, kind: optionKindOf(option.id) ?? "delivery", location }
  return toOptionRate(shown, { calculated_amount: amount, is_calculated_price_tax_inclusive: true, lastmile }, "gbp")
}

const routeAnswer = (rates: ReturnType<typeof routeRow>[]) => ({
  cart_id: "cart_1",
  currency_code: "gbp",
  eligibility: "PARTIAL",
  rates,
})

const camdenDown = () =>
  routeRow(
    "so_camden",
    "Collect from Camden",
    COLLECTION,
    null,
    describePricing(COLLECTION, CAUSES.service_unavailable)
  )

describe("the storefront package's fixtures are what the plugin answers", () => {
  it.each(Object.keys(CAUSES) as answers.RefusalCause[])("words a refusal for %s as the package reads it", (cause) => {
    const words = (option: LastmileFulfillmentOption) => {
      const { unavailable_code, unavailable_reason, unavailable_fields } = describePricing(option, CAUSES[cause])
      return { unavailable_code, unavailable_reason, unavailable_fields }
    }
    expect([words(NEXT_DAY), words(SAME_DAY), words(COLLECTION)]).toEqual([
      answers.REFUSALS[cause].delivery,
      answers.REFUSALS[cause].delivery,
      answers.REFUSALS[cause].collection,
    ])
    const store = { id: "sloc_soho", name: "Soho", address: null }
    expect([
      routeRow("so_same_day", "Same day delivery", SAME_DAY, null, describePricing(SAME_DAY, CAUSES[cause])),
      routeRow("so_soho", "Collect from Soho", COLLECTION, null, describePricing(COLLECTION, CAUSES[cause]), store),
    ]).toEqual([
      answers.refusedOption({ shipping_option_id: "so_same_day", name: "Same day delivery", type: "delivery" }, cause),
      answers.refusedOption(
        { shipping_option_id: "so_soho", name: "Collect from Soho", type: "collection", stock_location: store },
        cause
      ),
    ])
  })

  it("answers the rates route's fixtures: live, the service down, a price kept, a detail missing", () => {
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
    const camden = describePricing(COLLECTION, {
      ok: true,
      rate: { rateCode: "SVC_COL", name: "Camden", description: answers.CAMDEN_READINESS, price: 0 },
      price: { amount: 0, currency: "GBP" },
      merchantLocationId: "store-camden",
      eligibility: "PARTIAL",
    })
    const camdenAt = {
      id: "sloc_camden",
      name: "Camden",
      address: { address_1: "12 Camden High St", city: "London", postal_code: "NW1 0JH", country_code: "gb" },
    }
    expect(
      routeAnswer([
        routeRow("so_next_day", "Next day delivery", NEXT_DAY, 3.95, describePricing(NEXT_DAY, nextDayPriced)),
        routeRow(
          "so_same_day",
          "Same day delivery",
          SAME_DAY,
          null,
          describePricing(SAME_DAY, CAUSES.route_not_served)
        ),
        routeRow("so_camden", "Collect from Camden", COLLECTION, 0, camden, camdenAt),
        routeRow("so_soho", "Collect from Soho", COLLECTION, null, describePricing(COLLECTION, CAUSES.rate_missing), {
          id: "sloc_soho",
          name: "Soho",
          address: null,
        }),
      ])
    ).toEqual(answers.LIVE_RATES)

    const fallback = (id: string, name: string, option: LastmileFulfillmentOption) =>
      routeRow(id, name, option, 6, describeStandIn(option, { kind: "fallback" }))
    expect(routeAnswer([fallback("so_next_day", "Next day delivery", NEXT_DAY), camdenDown()])).toEqual(
      answers.OUTAGE_RATES
    )

    const kept = describeStandIn(NEXT_DAY, {
      kind: "kept",
      rateCode: STANDARD.rateCode,
      name: STANDARD.name,
      description: null,
      window: STANDARD.window ?? null,
    })
    expect(
      routeAnswer([
        routeRow("so_next_day", "Next day delivery", NEXT_DAY, 4.95, kept),
        fallback("so_same_day", "Same day delivery", SAME_DAY),
        camdenDown(),
      ])
    ).toEqual(answers.KEPT_RATES)

    expect(
      routeAnswer([
        routeRow("so_next_day", "Next day delivery", NEXT_DAY, null, describePricing(NEXT_DAY, CAUSES.phone_missing)),
      ])
    ).toEqual(answers.INCOMPLETE_RATES)
  })

  it("writes a booking's data, a pending booking and an older booking's labels as the fixtures hold them", () => {
    const bookedAt = new Date("2026-07-24T09:00:02.000Z")
    const shown: answers.BookingShown[] = [
      { kind: "delivery", rateName: "Next day eco", window: answers.ECO_WINDOW },
      { kind: "collection", store: answers.CAMDEN_STORE, rateName: "Click and collect" },
      { kind: "return" },
    ]
    for (const s of shown) {
      expect(toFulfillmentData(answers.TASK_4242, { ...s, bookedAt })).toEqual(answers.bookedData(s))
    }
    const noLink = { taskId: 7, trackingId: "LM-7", trackingUrl: null }
    expect(toFulfillmentData(noLink, { kind: "delivery", bookedAt })).toEqual(
      answers.bookedData({ kind: "delivery" }, noLink)
    )
    expect(answers.pendingFulfillment().data).toEqual({ provider: LASTMILE_DATA_MARKER, status: PENDING_BOOKING })
    const older = answers.bookedFulfillment()
    expect(older.labels).toEqual(toLabels(older.data))
  })

  it("reads the fixtures' method and fulfillment data with its own schemas, in both versions", () => {
    expect(readShippingMethodData(answers.methodData())).not.toBeNull()
    expect(readShippingMethodData(answers.currentMethodData())).not.toBeNull()
    expect(readShippingMethodData(answers.currentCollectionData())).not.toBeNull()
    expect(readFulfillmentData(answers.bookedFulfillment().data)).not.toBeNull()
    expect(
      readFulfillmentData(answers.currentFulfillment({ kind: "collection", store: answers.CAMDEN_STORE }).data)
    ).not.toBeNull()
  })

  it("names the provider and the option kinds as the fixtures do", () => {
    expect(LASTMILE_PROVIDER_ID).toBe(`${LASTMILE_PROVIDER_IDENTIFIER}_lastmile`)
    expect(answers.OPTION_KINDS.map(([optionId]) => [optionId, optionKindOf(optionId)])).toEqual(answers.OPTION_KINDS)
  })
})

describe("the public data the plugin stores", () => {
  it("fits the storefront package's shapes (checked by the type checker)", () => {
    expect([methodDataFits, fulfillmentDataFits]).toEqual([true, true])
  })

  it("is read back by the helpers as the plugin wrote it", () => {
    const method = answers.currentCollectionData()
    const booking = toFulfillmentData(
      {
        taskId: 7,
        trackingId: "LM-7",
        trackingUrl: "https://track.example.com/LM-7",
        status: { value: "NOT_STARTED" },
      },
      { kind: "collection", store: answers.CAMDEN_STORE }
    )
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Collect from Camden", data: method }],
      fulfillments: [{ id: "ful_1", provider_id: "lastmile_lastmile", data: booking }],
    }
    expect(readChosenMethod(order)).toMatchObject({ kind: "collection", name: "Camden" })
    expect(readOrderTracking(order)).toMatchObject({
      status: "booked",
      trackingNumber: "LM-7",
      trackingUrl: "https://track.example.com/LM-7",
      collection: { name: "Camden" },
    })
  })
})
