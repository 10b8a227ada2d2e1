import { selectedChoiceKey, toDeliveryStep, formatAmount, formatCo2Savings, formatWindow } from "../index.js"
import {
  CAMDEN_READINESS,
  LOST_ECO,
  INCOMPLETE_RATES,
  KEPT_RATES,
  LIVE_RATES,
  NOW,
  OUTAGE_RATES,
  PHONE_MISSING,
  currentCollectionData,
  currentMethodData,
  methodData,
} from "./plugin-answers.js"

const LONDON = { locale: "en-GB", timeZone: "Europe/London", now: NOW }

/** Intl separates with narrow and no-break spaces; compare the words. */
const plain = (text: string | null) => text?.replace(/\s/g, " ") ?? null

describe("toDeliveryStep", () => {
  it("offers every delivery rate with its price, window and CO₂ saving, the rule's pick first", () => {
    const step = toDeliveryStep(LIVE_RATES, LONDON)
    expect(
      step.delivery.map((c) => [c.name, c.priceText, c.windowText, c.co2Text, c.isDefault, c.estimate, c.key])
    ).toEqual([
      ["Next day eco", "£3.95", "Tomorrow, 12:00–22:00", "1.1 kg CO₂", true, false, "so_next_day#ND-ECO"],
      ["Next day", "£4.95", "Tomorrow, 08:00–20:00", "0.42 kg CO₂", false, false, "so_next_day#ND-STD"],
    ])
    expect(step.delivery[0]).toMatchObject({
      kind: "delivery",
      shippingOptionId: "so_next_day",
      rateCode: "ND-ECO",
      optionName: "Next day delivery",
      amount: 3.95,
      currencyCode: "gbp",
      isTaxInclusive: true,
      description: "By cargo bike",
    })
  })

  it("offers each store that collects by name, with its price, address and readiness text", () => {
    const step = toDeliveryStep(LIVE_RATES, LONDON)
    expect(step.collection).toEqual([
      expect.objectContaining({
        kind: "collection",
        key: "so_camden",
        shippingOptionId: "so_camden",
        rateCode: null,
        storeName: "Camden",
        optionName: "Collect from Camden",
        amount: 0,
        priceText: "£0.00",
        description: CAMDEN_READINESS,
        stockLocationId: "sloc_camden",
        merchantLocationId: "store-camden",
        address: {
          address_1: "12 Camden High St",
          address_2: null,
          city: "London",
          postal_code: "NW1 0JH",
          country_code: "gb",
        },
      }),
    ])
  })

  it("lists what cannot be offered with the reason in the shopper's words, and says the quote is partial", () => {
    const step = toDeliveryStep(LIVE_RATES, LONDON)
    expect(step.unavailable.map((u) => [u.kind, u.name, u.reason, u.code])).toEqual([
      ["delivery", "Next day morning", "No van has room for a morning slot.", null],
      ["delivery", "Same day delivery", "This service does not deliver to this address.", "route_not_served"],
      ["collection", "Soho", "This store cannot offer collection for this cart.", "rate_missing"],
    ])
    expect(step.partial).toBe(true)
  })

  it("marks the outage price as an estimate, chosen without a rate code", () => {
    const step = toDeliveryStep(OUTAGE_RATES, LONDON)
    expect(step.delivery).toEqual([
      expect.objectContaining({
        key: "so_next_day",
        rateCode: null,
        name: "Next day delivery",
        priceText: "£6.00",
        estimate: true,
        priceNote: "Estimated price",
        // The price note says it is an estimate, and the step's verdict why: the row does not say it a third time.
        description: null,
      }),
    ])
    expect(step.unavailable.map((u) => u.reason)).toEqual([
      "Collection cannot be confirmed right now. Please try again in a moment.",
    ])
  })

  it("says what the shopper must add before anything can be priced", () => {
    const step = toDeliveryStep(INCOMPLETE_RATES, LONDON)
    expect(step.delivery).toEqual([])
    expect(step.unavailable).toEqual([expect.objectContaining({ reason: PHONE_MISSING, code: "input_incomplete" })])
    expect(step.missingDetails).toBe(PHONE_MISSING)
    expect(toDeliveryStep(LIVE_RATES).missingDetails).toBeNull()
  })
})

describe("one price per choice", () => {
  /** The cart the shopper chose "Next day" on at £4.95, as the store API answers it. */
  const chosen = {
    id: "cart_1",
    shipping_methods: [
      {
        shipping_option_id: "so_next_day",
        name: "Next day delivery",
        amount: 4.95,
        data: currentMethodData({ rateCode: "ND-STD", rateName: "Next day", description: null }),
      },
    ],
  }

  it("shows a live price as it is, with nothing beside it", () => {
    const step = toDeliveryStep(LIVE_RATES, LONDON)
    expect(step.delivery.map((c) => [c.kept, c.estimate, c.priceNote])).toEqual([
      [false, false, null],
      [false, false, null],
    ])
  })

  it("shows the chosen option at the price the cart keeps through an outage, named as chosen and selected", () => {
    const step = toDeliveryStep(KEPT_RATES, { ...LONDON, cart: chosen })
    const held = step.delivery.find((c) => c.shippingOptionId === "so_next_day")
    expect(held).toMatchObject({
      name: "Next day",
      amount: chosen.shipping_methods[0].amount,
      priceText: "£4.95",
      kept: true,
      estimate: false,
      priceNote: "Price as chosen",
      windowText: "Tomorrow, 08:00–20:00",
    })
    expect(step.selectedKey).toBe(held?.key)
    expect(step.chosenUnavailable).toBeNull()
  })

  it("shows the other delivery options at the fallback, as estimates", () => {
    const step = toDeliveryStep(KEPT_RATES, { ...LONDON, cart: chosen })
    expect(step.delivery.find((c) => c.shippingOptionId === "so_same_day")).toMatchObject({
      kept: false,
      estimate: true,
      priceNote: "Estimated price",
      priceText: "£6.00",
    })
  })

  it("names a kept price by the rate the route says it keeps, with or without the cart", () => {
    expect(toDeliveryStep(KEPT_RATES).delivery[0].name).toBe("Next day")
    const fromOlderServer = { ...KEPT_RATES, rates: KEPT_RATES.rates.map((r) => ({ ...r, rate_name: null })) }
    expect(toDeliveryStep(fromOlderServer).delivery[0].name).toBe("Next day delivery")
    expect(toDeliveryStep(fromOlderServer, { ...LONDON, cart: chosen }).delivery[0].name).toBe("Next day")
  })

  it("says so when the option the cart holds can no longer be offered, and selects nothing", () => {
    const atCamden = {
      id: "cart_1",
      shipping_methods: [{ shipping_option_id: "so_camden", amount: 0, data: currentCollectionData() }],
    }
    const step = toDeliveryStep(KEPT_RATES, { cart: atCamden })
    expect(step.selectedKey).toBeNull()
    expect(step.chosenUnavailable).toMatchObject({ key: "so_camden", code: "service_unavailable" })
    expect(toDeliveryStep(KEPT_RATES).chosenUnavailable).toBeNull()
  })

  it("says so when the rate the shopper picked is refused now", () => {
    const morning = {
      id: "cart_1",
      shipping_methods: [
        {
          shipping_option_id: "so_next_day",
          data: currentMethodData({ rateCode: "ND-AM", rateName: "Next day morning" }),
        },
      ],
    }
    expect(toDeliveryStep(LIVE_RATES, { cart: morning }).chosenUnavailable).toMatchObject({
      key: "so_next_day#ND-AM",
      reason: "No van has room for a morning slot.",
    })
  })
})

describe("a choice the cart lost", () => {
  // The shopper chose "Next day eco" at £3.95; the address changed during an outage, and the method went.
  it("is said, with what happened and what to do, while the cart holds no method; nothing is selected", () => {
    const step = toDeliveryStep(
      { ...OUTAGE_RATES, lost_choice: LOST_ECO },
      { cart: { id: "cart_1", shipping_methods: [] } }
    )
    expect(step.lostChoice).toEqual(LOST_ECO)
    expect(step.selectedKey).toBeNull()
    // The option is offered again at the estimate, as an estimate, named as the option (not the rate lost).
    expect(step.delivery.map((c) => [c.name, c.amount, c.priceNote, c.window])).toEqual([
      ["Next day delivery", 6, "Estimated price", null],
    ])
  })

  it("is not said once the cart holds a method again, nor by an older plugin that does not say it", () => {
    const chosenAgain = {
      id: "cart_1",
      shipping_methods: [{ shipping_option_id: "so_next_day", amount: 6, data: currentMethodData({ fallback: true }) }],
    }
    expect(toDeliveryStep({ ...OUTAGE_RATES, lost_choice: LOST_ECO }, { cart: chosenAgain }).lostChoice).toBeNull()
    expect(toDeliveryStep(OUTAGE_RATES, { cart: { id: "cart_1", shipping_methods: [] } }).lostChoice).toBeNull()
  })
})

describe("the choice a cart holds", () => {
  const cartWith = (data: Record<string, unknown> | null, optionId = "so_next_day") => ({
    id: "cart_1",
    shipping_methods: [{ shipping_option_id: optionId, data }],
  })

  it("is the rate of the cart's method, found by its code", () => {
    expect(toDeliveryStep(LIVE_RATES, { ...LONDON, cart: cartWith(methodData()) }).selectedKey).toBe(
      "so_next_day#ND-STD"
    )
  })

  it("is found by the rate's name when the service minted a new code", () => {
    const cart = cartWith(methodData({ rateCode: "ND-STD-OLD" }))
    expect(toDeliveryStep(LIVE_RATES, { cart }).selectedKey).toBe("so_next_day#ND-STD")
  })

  it("is the rule's pick when the method's data was not read, and nothing when a picked rate is gone", () => {
    expect(toDeliveryStep(LIVE_RATES, { cart: cartWith(null) }).selectedKey).toBe("so_next_day#ND-ECO")
    const gone = cartWith(methodData({ rateCode: "ND-PM", rateName: "Next day evening", rateChosen: true }))
    expect(toDeliveryStep(LIVE_RATES, { cart: gone }).selectedKey).toBeNull()
  })

  it("is the store of a collection method", () => {
    const data = methodData({
      optionId: "lastmile-collection",
      kind: "collection",
      rateCode: "SVC_COL",
      rateName: "Camden",
      rateChosen: false,
      merchantLocationId: "store-camden",
    })
    const cart = cartWith(data, "so_camden")
    expect(selectedChoiceKey(toDeliveryStep(LIVE_RATES), cart)).toBe("so_camden")
  })

  it("is read from a method written since 0.2", () => {
    const cart = cartWith(currentMethodData({ rateCode: "ND-STD", rateName: "Next day" }))
    expect(toDeliveryStep(LIVE_RATES, { cart }).selectedKey).toBe("so_next_day#ND-STD")
    const store = cartWith(currentCollectionData(), "so_camden")
    expect(toDeliveryStep(LIVE_RATES, { cart: store }).selectedKey).toBe("so_camden")
  })

  it("is nothing for a cart without a lastmile method", () => {
    expect(toDeliveryStep(LIVE_RATES, { cart: cartWith(null, "so_manual") }).selectedKey).toBeNull()
  })
})

describe("formatting", () => {
  it("formats amounts in major units by the currency's own digits", () => {
    expect(plain(formatAmount(4.95, "gbp", { locale: "en-GB" }))).toBe("£4.95")
    expect(plain(formatAmount(1500, "jpy", { locale: "en-GB" }))).toBe("JP¥1,500")
    expect(plain(formatAmount(1.25, "kwd", { locale: "en-GB" }))).toBe("KWD 1.250")
  })

  it("names the day of a window in the shopper's locale and the store's time zone", () => {
    const window = { from: "2026-07-25T13:00:00.000Z", to: "2026-07-25T17:00:00.000Z" }
    const newYork = { locale: "en-US", timeZone: "America/New_York", now: NOW }
    expect(plain(formatWindow(window, LONDON))).toBe("Tomorrow, 14:00–18:00")
    expect(plain(formatWindow(window, newYork))).toBe("Tomorrow, 9:00 AM – 1:00 PM")
    expect(plain(formatWindow(window, { ...LONDON, now: new Date("2026-07-25T06:00:00.000Z") }))).toBe(
      "Today, 14:00–18:00"
    )
    expect(plain(formatWindow(window, { ...LONDON, now: new Date("2026-07-22T12:00:00.000Z") }))).toBe(
      "Saturday 25 July, 14:00–18:00"
    )
    expect(plain(formatWindow(window, { locale: "fr-FR", timeZone: "Europe/Paris", now: NOW }))).toBe(
      "Demain, 15:00 – 19:00"
    )
  })

  it("shows a window across days as a range, and nothing for a missing or unreadable one", () => {
    const overnight = { from: "2026-07-25T17:00:00.000Z", to: "2026-07-26T08:00:00.000Z" }
    expect(plain(formatWindow(overnight, LONDON))).toBe("Sat 25 Jul, 18:00 – Sun 26 Jul, 09:00")
    expect(formatWindow(null, LONDON)).toBeNull()
    expect(formatWindow({ from: "soon", to: "later" }, LONDON)).toBeNull()
  })

  it("shows a CO₂ saving only when there is one", () => {
    expect(plain(formatCo2Savings(0.42, { locale: "en-GB" }))).toBe("0.42 kg CO₂")
    expect(plain(formatCo2Savings(1200, { locale: "de-DE", co2Unit: "gram" }))).toBe("1.200 g CO₂")
    expect(formatCo2Savings(0)).toBeNull()
    expect(formatCo2Savings(null)).toBeNull()
  })
})
