import type { PricingResult } from "../../lib/checkout/pricing-result"
import type { QuoteInputField } from "../../lib/checkout/quote-request"
import { describePricing, describeStandIn } from "../../lib/checkout/rate-details"
import {
  LASTMILE_ACTION_TEXT,
  LIVE_PRICES_UNAVAILABLE_TEXT,
  NONE_AVAILABLE_TEXT,
  NOTHING_OFFERED_TEXT,
  OUTAGE_TEXT,
  SOME_UNAVAILABLE_TEXT,
  actionFor,
  summariseUnavailable,
  toDeliveryStep,
} from "medusa-plugin-lastmile-storefront"
import {
  COLLECTION,
  KEPT_RATES,
  LIVE_RATES,
  NEXT_DAY,
  OUTAGE_RATES,
  PHONE_MISSING,
  SAME_DAY,
  pricedOption,
  ratesResponse,
} from "./fixtures"

type Refusal = PricingResult & { ok: false }

const STORES = ["Camden", "Soho", "Brixton", "Hackney", "Islington"]

const deliveries = (result: Refusal) => [
  pricedOption("so_next_day", "Next day delivery", NEXT_DAY.id, null, describePricing(NEXT_DAY, result)),
  pricedOption("so_same_day", "Same day delivery", SAME_DAY.id, null, describePricing(SAME_DAY, result)),
]

const stores = (result: Refusal) =>
  STORES.map((store) =>
    pricedOption(`so_${store}`, `Collect from ${store}`, COLLECTION.id, null, describePricing(COLLECTION, result), {
      id: `sloc_${store}`,
      name: store,
      address: null,
    })
  )

/** Every option the demo's cart has (2 delivery options, 5 stores), each refused for the same cause. */
const allRefused = (result: Refusal) => ratesResponse([...deliveries(result), ...stores(result)])

const incomplete = (detail: string, fields: QuoteInputField[]): Refusal => ({
  ok: false,
  reason: "input_incomplete",
  detail,
  problems: fields.map((field) => ({ field, message: detail })),
})
const PHONE: QuoteInputField[] = ["shipping_address.phone"]
const UNDIALLABLE = "Enter a phone number that can be dialled, with its country code if it is not local."
const NOT_SERVED: Refusal = { ok: false, reason: "route_not_served", detail: "the service cannot serve this address" }
const DOWN: Refusal = { ok: false, reason: "service_unavailable", detail: "503", error: null }

describe("summariseUnavailable", () => {
  it("says each reason once, with the options it affects, when some options are offered", () => {
    const { verdict, groups } = toDeliveryStep(LIVE_RATES).reasons
    expect(verdict).toEqual({ kind: "some_unavailable", text: SOME_UNAVAILABLE_TEXT, action: null, actionText: null })
    expect(groups.map((g) => [g.names, g.reason, g.action])).toEqual([
      [["Next day morning"], "No van has room for a morning slot.", "choose_another"],
      [["Same day delivery"], "This service does not deliver to this address.", "choose_another"],
      [["Soho"], "This store cannot offer collection for this cart.", "choose_another"],
    ])
  })

  it("has nothing to say when everything can be offered", () => {
    const everything = { ...LIVE_RATES, rates: LIVE_RATES.rates.filter((r) => r.available) }
    const step = toDeliveryStep({ ...everything, rates: everything.rates.map((r) => ({ ...r, rates: [] })) })
    expect(step.reasons).toEqual({ verdict: null, groups: [] })
  })

  it("says a missing phone once for all seven options, with the phone to edit, and lists nothing else", () => {
    const step = toDeliveryStep(allRefused(incomplete(PHONE_MISSING, PHONE)))
    expect(step.unavailable).toHaveLength(7)
    expect(step.reasons).toEqual({
      verdict: {
        kind: "details_needed",
        text: PHONE_MISSING,
        action: "edit_phone",
        actionText: "Edit your phone number",
      },
      groups: [],
    })
  })

  it("asks for the phone when it cannot be dialled", () => {
    expect(toDeliveryStep(allRefused(incomplete(UNDIALLABLE, PHONE))).reasons.verdict).toMatchObject({
      kind: "details_needed",
      text: UNDIALLABLE,
      action: "edit_phone",
    })
  })

  it("sends the shopper to the address form for an incomplete address, or an address and a phone", () => {
    const address = toDeliveryStep(
      allRefused(incomplete("The shipping address needs a postcode.", ["shipping_address"]))
    ).reasons
    expect(address.verdict).toMatchObject({
      kind: "details_needed",
      action: "edit_address",
      actionText: "Edit your address",
    })
    const both = toDeliveryStep(
      allRefused(
        incomplete(`Enter the recipient's first and last name. ${PHONE_MISSING}`, ["shipping_address.name", ...PHONE])
      )
    )
    expect(both.reasons.verdict?.action).toBe("edit_address")
  })

  it("does not ask the shopper to fix a store's own address", () => {
    expect(actionFor({ code: "input_incomplete", fields: ["store_address"] }, true)).toBe("choose_another")
  })

  it("says nothing delivers and no store collects, with the address to edit, when no option is offered", () => {
    const rates = ratesResponse([
      ...deliveries(NOT_SERVED),
      ...stores({ ok: false, reason: "rate_missing", detail: "" }),
    ])
    const { verdict, groups } = toDeliveryStep(rates).reasons
    expect(verdict).toEqual({
      kind: "none_available",
      text: NONE_AVAILABLE_TEXT,
      action: "edit_address",
      actionText: "Edit your address",
    })
    // The verdict says the address is not served: that reason is not said again; the stores' own one is.
    expect(groups.map((g) => [g.names.length, g.reason, g.action])).toEqual([
      [5, "This store cannot offer collection for this cart.", "choose_another"],
    ])
  })

  it("says so, rather than blame the address, when nothing is offered for a reason the shopper cannot fix", () => {
    const neutral = { kind: "none_available", text: NOTHING_OFFERED_TEXT, action: null, actionText: null }
    expect(toDeliveryStep(ratesResponse([])).reasons.verdict).toEqual(neutral)
    const refused: Refusal = { ok: false, reason: "service_refused", detail: "401", error: null }
    expect(toDeliveryStep(allRefused(refused)).reasons.verdict).toEqual(neutral)
    expect(toDeliveryStep(allRefused({ ok: false, reason: "rate_missing", detail: "" })).reasons.verdict).toEqual(
      neutral
    )
    const storesOnly = ratesResponse(stores({ ok: false, reason: "store_ambiguous", detail: "two" }))
    expect(toDeliveryStep(storesOnly).reasons.verdict).toEqual(neutral)
  })

  it("asks to try again when the service is down and nothing has a fallback price", () => {
    const { verdict, groups } = toDeliveryStep(allRefused(DOWN)).reasons
    expect(verdict).toEqual({ kind: "try_later", text: OUTAGE_TEXT, action: "try_later", actionText: "Try again" })
    expect(groups).toEqual([])
    const deliveryOnly = toDeliveryStep(ratesResponse(deliveries(DOWN))).reasons
    expect(deliveryOnly.verdict?.text).toBe(
      "Live delivery prices are unavailable right now. Please try again in a moment."
    )
    expect(deliveryOnly.groups).toEqual([])
  })

  it("offers the fallback, says the other rates cannot be shown, and says once in a store's words why", () => {
    const { verdict, groups } = toDeliveryStep(OUTAGE_RATES).reasons
    expect(verdict).toEqual({
      kind: "prices_unavailable",
      text: LIVE_PRICES_UNAVAILABLE_TEXT,
      action: "try_later",
      actionText: "Try again",
    })
    expect(groups).toEqual([
      expect.objectContaining({
        names: ["Collect from Camden"],
        reason: "Collection cannot be confirmed right now. Please try again in a moment.",
        code: "service_unavailable",
        action: "try_later",
      }),
    ])
  })

  it("says the other rates cannot be shown while the chosen one keeps its price", () => {
    const step = toDeliveryStep(KEPT_RATES)
    expect(step.delivery.map((c) => [c.name, c.priceNote])).toEqual([
      ["Next day", "Price as chosen"],
      ["Same day delivery", "Estimated price"],
    ])
    expect(step.reasons.verdict).toMatchObject({ kind: "prices_unavailable", text: LIVE_PRICES_UNAVAILABLE_TEXT })
  })

  it("never gives a store a delivery's reason", () => {
    for (const refusal of [NOT_SERVED, DOWN]) {
      const step = toDeliveryStep(ratesResponse([...deliveries(refusal), ...stores(refusal)]))
      const storeReasons = step.unavailable.filter((u) => u.kind === "collection").map((u) => u.reason)
      expect(storeReasons.length).toBeGreaterThan(0)
      for (const reason of storeReasons) {
        expect(reason).toMatch(/collection/i)
        expect(reason).not.toMatch(/deliver/i)
      }
    }
  })

  it("names each affected option once, in the step's order", () => {
    const twice = ratesResponse([
      pricedOption("so_a", "Same day delivery", SAME_DAY.id, null, describePricing(SAME_DAY, NOT_SERVED)),
      pricedOption("so_b", "Same day delivery", SAME_DAY.id, null, describePricing(SAME_DAY, NOT_SERVED)),
      pricedOption("so_c", "Next day delivery", NEXT_DAY.id, 6, describeStandIn(NEXT_DAY, { kind: "fallback" })),
    ])
    const [group] = summariseUnavailable(toDeliveryStep(twice)).groups
    expect(group).toMatchObject({ names: ["Same day delivery"], options: [{ key: "so_a" }, { key: "so_b" }] })
  })
})

describe("what the shopper can do about each reason", () => {
  const refusals: [Refusal, boolean, string][] = [
    [incomplete(PHONE_MISSING, PHONE), false, "edit_phone"],
    [incomplete("The shipping address needs a street, city.", ["shipping_address"]), false, "edit_address"],
    [{ ok: false, reason: "rate_code_invalid", detail: "data.rate_code must be…" }, true, "choose_another"],
    [DOWN, true, "try_later"],
    [DOWN, false, "try_later"],
    [{ ok: false, reason: "service_refused", detail: "400", error: null }, true, "choose_another"],
    [NOT_SERVED, true, "choose_another"],
    [NOT_SERVED, false, "edit_address"],
    [{ ok: false, reason: "rate_error", detail: "No van has room." } as Refusal, true, "choose_another"],
    [{ ok: false, reason: "currency_mismatch", detail: "EUR" } as Refusal, true, "choose_another"],
    [{ ok: false, reason: "invalid_price", detail: "no price" } as Refusal, true, "choose_another"],
    [{ ok: false, reason: "store_ambiguous", detail: "two" } as Refusal, true, "choose_another"],
    [{ ok: false, reason: "store_not_mapped", detail: "none" }, true, "choose_another"],
    [{ ok: false, reason: "rate_missing", detail: "none" } as Refusal, true, "choose_another"],
  ]

  it.each(refusals.map(([result, anyOffered, action]) => [result.reason, anyOffered, action, result] as const))(
    "%s, other options offered: %p → %s",
    (_reason, anyOffered, action, result) => {
      const { unavailable_code, unavailable_fields } = describePricing(NEXT_DAY, result)
      expect(actionFor({ code: unavailable_code, fields: unavailable_fields }, anyOffered)).toBe(action)
    }
  )

  it("refuses a rate of an offered option (no code) by offering the others", () => {
    expect(actionFor({ code: null, fields: [] }, true)).toBe("choose_another")
    expect(actionFor({ code: "unpriced", fields: [] }, true)).toBe("choose_another")
  })

  it("words every action", () => {
    expect(LASTMILE_ACTION_TEXT).toEqual({
      edit_phone: "Edit your phone number",
      edit_address: "Edit your address",
      try_later: "Try again",
      choose_another: "Choose another option",
    })
  })
})
