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
} from "../index.js"
import {
  KEPT_RATES,
  LIVE_RATES,
  OUTAGE_RATES,
  PHONE_MISSING,
  REFUSALS,
  type RefusalCause,
  fallbackOption,
  ratesResponse,
  refusedOption,
} from "./plugin-answers.js"

const STORES = ["Camden", "Soho", "Brixton", "Hackney", "Islington"]

const deliveries = (cause: RefusalCause) => [
  refusedOption({ shipping_option_id: "so_next_day", name: "Next day delivery", type: "delivery" }, cause),
  refusedOption({ shipping_option_id: "so_same_day", name: "Same day delivery", type: "delivery" }, cause),
]

const stores = (cause: RefusalCause) =>
  STORES.map((store) =>
    refusedOption(
      {
        shipping_option_id: `so_${store}`,
        name: `Collect from ${store}`,
        type: "collection",
        stock_location: { id: `sloc_${store}`, name: store, address: null },
      },
      cause
    )
  )

/** Every option the demo's cart has (2 delivery options, 5 stores), each refused for the same cause. */
const allRefused = (cause: RefusalCause) => ratesResponse([...deliveries(cause), ...stores(cause)])

const UNDIALLABLE = REFUSALS.phone_undiallable.delivery.unavailable_reason

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
    const step = toDeliveryStep(allRefused("phone_missing"))
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
    expect(toDeliveryStep(allRefused("phone_undiallable")).reasons.verdict).toMatchObject({
      kind: "details_needed",
      text: UNDIALLABLE,
      action: "edit_phone",
    })
  })

  it("sends the shopper to the address form for an incomplete address, or an address and a phone", () => {
    const address = toDeliveryStep(allRefused("postcode_missing")).reasons
    expect(address.verdict).toMatchObject({
      kind: "details_needed",
      action: "edit_address",
      actionText: "Edit your address",
    })
    const both = toDeliveryStep(allRefused("name_and_phone_missing"))
    expect(both.reasons.verdict?.action).toBe("edit_address")
  })

  it("does not ask the shopper to fix a store's own address", () => {
    expect(actionFor({ code: "input_incomplete", fields: ["store_address"] }, true)).toBe("choose_another")
  })

  it("says nothing delivers and no store collects, with the address to edit, when no option is offered", () => {
    const rates = ratesResponse([...deliveries("route_not_served"), ...stores("rate_missing")])
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
    expect(toDeliveryStep(allRefused("service_refused")).reasons.verdict).toEqual(neutral)
    expect(toDeliveryStep(allRefused("rate_missing")).reasons.verdict).toEqual(neutral)
    const storesOnly = ratesResponse(stores("store_ambiguous"))
    expect(toDeliveryStep(storesOnly).reasons.verdict).toEqual(neutral)
  })

  it("asks to try again when the service is down and nothing has a fallback price", () => {
    const { verdict, groups } = toDeliveryStep(allRefused("service_unavailable")).reasons
    expect(verdict).toEqual({ kind: "try_later", text: OUTAGE_TEXT, action: "try_later", actionText: "Try again" })
    expect(groups).toEqual([])
    const deliveryOnly = toDeliveryStep(ratesResponse(deliveries("service_unavailable"))).reasons
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
    for (const cause of ["route_not_served", "service_unavailable"] as const) {
      const step = toDeliveryStep(ratesResponse([...deliveries(cause), ...stores(cause)]))
      const storeReasons = step.unavailable.filter((u) => u.kind === "collection").map((u) => u.reason)
      expect(storeReasons.length).toBeGreaterThan(0)
      for (const reason of storeReasons) {
        expect(reason).toMatch(/collection/i)
        expect(reason).not.toMatch(/deliver/i)
      }
    }
  })

  it("names each affected option once, in the step's order", () => {
    const sameDay = (key: string) => ({ shipping_option_id: key, name: "Same day delivery", type: "delivery" }) as const
    const twice = ratesResponse([
      refusedOption(sameDay("so_a"), "route_not_served"),
      refusedOption(sameDay("so_b"), "route_not_served"),
      fallbackOption({ shipping_option_id: "so_c", name: "Next day delivery", type: "delivery" }),
    ])
    const [group] = summariseUnavailable(toDeliveryStep(twice)).groups
    expect(group).toMatchObject({ names: ["Same day delivery"], options: [{ key: "so_a" }, { key: "so_b" }] })
  })
})

describe("what the shopper can do about each reason", () => {
  const refusals: [RefusalCause, boolean, string][] = [
    ["phone_missing", false, "edit_phone"],
    ["postcode_missing", false, "edit_address"],
    ["rate_code_invalid", true, "choose_another"],
    ["service_unavailable", true, "try_later"],
    ["service_unavailable", false, "try_later"],
    ["service_refused", true, "choose_another"],
    ["route_not_served", true, "choose_another"],
    ["route_not_served", false, "edit_address"],
    ["rate_error", true, "choose_another"],
    ["currency_mismatch", true, "choose_another"],
    ["invalid_price", true, "choose_another"],
    ["store_ambiguous", true, "choose_another"],
    ["store_not_mapped", true, "choose_another"],
    ["rate_missing", true, "choose_another"],
  ]

  it.each(refusals)("%s, other options offered: %p → %s", (cause, anyOffered, action) => {
    const { unavailable_code, unavailable_fields } = REFUSALS[cause].delivery
    expect(actionFor({ code: unavailable_code, fields: unavailable_fields }, anyOffered)).toBe(action)
  })

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
