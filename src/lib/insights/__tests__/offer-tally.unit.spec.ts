import { type OfferPriced, announceOfferPriced, onOfferPriced } from "../offer-signal"
import { OfferTally, cartStateDigest, reasonCode } from "../offer-tally"

const TZ = "Europe/London"
const address = {
  first_name: "Ada",
  last_name: "Lovelace",
  phone: "07911 123456",
  address_1: "10 Downing Street",
  city: "London",
  postal_code: "SW1A 2AA",
  country_code: "gb",
}
const tee = { id: "cali_1", variant_id: "variant_tee", quantity: 1, updated_at: "2026-11-10T09:00:00Z" }

/** A pricing context as Medusa's cart flows hand it to the provider. */
function context(overrides: Record<string, unknown> = {}) {
  return {
    id: "cart_1",
    currency_code: "gbp",
    email: "ada@example.com",
    items: [tee],
    shipping_address: address,
    from_location: { id: "sloc_soho" },
    ...overrides,
  }
}

function offer(overrides: Partial<OfferPriced> = {}): OfferPriced {
  return {
    at: Date.parse("2026-11-10T10:00:00Z"),
    cart_id: "cart_1",
    fulfillment_option: "lastmile-collection",
    stock_location_id: "sloc_soho",
    unavailable: null,
    state: { address, items: [tee], currency: "gbp", email: "ada@example.com" },
    ...overrides,
  }
}

describe("cartStateDigest", () => {
  it("changes with the address, the contact, the basket or the currency, and with nothing else", () => {
    const base = offer().state
    const digest = cartStateDigest(base)
    expect(cartStateDigest({ ...base, items: [{ ...tee, updated_at: "later", unit_price: 20 }] })).toBe(digest)
    expect(cartStateDigest({ ...base, address: { ...address, postal_code: "sw1a 2aa " } })).toBe(digest)
    expect(cartStateDigest({ ...base, items: [{ ...tee, quantity: 2 }] })).not.toBe(digest)
    expect(cartStateDigest({ ...base, address: { ...address, phone: null } })).not.toBe(digest)
    expect(cartStateDigest({ ...base, address: { ...address, postal_code: "E1 6AN" } })).not.toBe(digest)
    expect(cartStateDigest({ ...base, email: null })).not.toBe(digest)
    expect(cartStateDigest({ ...base, currency: "eur" })).not.toBe(digest)
  })
})

describe("OfferTally", () => {
  it("counts each cart state once a day, and each option in it once, whichever route priced it how often", () => {
    const tally = new OfferTally({ timeZone: TZ })
    for (let i = 0; i < 3; i++) {
      tally.priced(offer())
      tally.priced(offer({ fulfillment_option: "lastmile-next-day", stock_location_id: "sloc_warehouse" }))
      tally.priced(offer({ stock_location_id: "sloc_bank", unavailable: "rate_missing" }))
    }
    const { increments, counted } = tally.drain()
    expect(increments).toEqual(
      expect.arrayContaining([
        { day: "2026-11-10", kind: "cart_state", fulfillment_option: "", stock_location_id: "", reason: "", count: 1 },
        {
          day: "2026-11-10",
          kind: "offered",
          fulfillment_option: "lastmile-collection",
          stock_location_id: "sloc_soho",
          reason: "",
          count: 1,
        },
        {
          day: "2026-11-10",
          kind: "offered",
          fulfillment_option: "lastmile-next-day",
          stock_location_id: "sloc_warehouse",
          reason: "",
          count: 1,
        },
        {
          day: "2026-11-10",
          kind: "unavailable",
          fulfillment_option: "lastmile-collection",
          stock_location_id: "sloc_bank",
          reason: "rate_missing",
          count: 1,
        },
      ])
    )
    expect(increments).toHaveLength(4)
    expect(counted).toHaveLength(3)

    // Priced again: nothing new. A new basket is a new state; the next day counts again.
    tally.priced(offer())
    expect(tally.drain().increments).toEqual([])
    tally.priced(offer({ state: { ...offer().state, items: [{ ...tee, quantity: 2 }] } }))
    tally.priced(offer({ at: Date.parse("2026-11-11T00:30:00Z") }))
    const next = tally.drain().increments
    expect(next.filter((i) => i.kind === "cart_state").map((i) => [i.day, i.count])).toEqual([
      ["2026-11-10", 1],
      ["2026-11-11", 1],
    ])
  })

  it("buckets by the store's day: 00:30 in London in July is the next day in UTC terms", () => {
    const tally = new OfferTally({ timeZone: TZ })
    tally.priced(offer({ at: Date.parse("2026-06-30T23:30:00Z") }))
    expect(tally.drain().increments[0].day).toBe("2026-07-01")
  })

  it("counts an order's chosen option once, and puts back what a failed write did not store", () => {
    const tally = new OfferTally({ timeZone: TZ })
    const choice = {
      at: new Date("2026-11-10T12:00:00Z"),
      order_id: "order_1",
      fulfillment_option: "lastmile-collection",
      stock_location_id: "sloc_soho",
    }
    tally.chosen(choice)
    tally.chosen(choice)
    const { increments } = tally.drain()
    expect(increments).toEqual([
      {
        day: "2026-11-10",
        kind: "chosen",
        fulfillment_option: "lastmile-collection",
        stock_location_id: "sloc_soho",
        reason: "",
        count: 1,
      },
    ])
    tally.restore(increments)
    tally.chosen({ ...choice, order_id: "order_2" })
    expect(tally.drain().increments).toEqual([expect.objectContaining({ kind: "chosen", count: 2 })])
    expect(tally.idle).toBe(true)
  })

  it("drops offers beyond its queue and says how many", () => {
    const tally = new OfferTally({ timeZone: TZ, maxQueued: 2 })
    tally.priced(offer())
    tally.priced(offer())
    tally.priced(offer())
    expect(tally.takeDropped()).toBe(1)
    expect(tally.takeDropped()).toBe(0)
  })

  it("keeps reasons as short codes", () => {
    expect(reasonCode("rate_missing")).toBe("rate_missing")
    expect(reasonCode("Out of stock!")).toBe("out_of_stock_")
    expect(reasonCode(null)).toBe("unknown")
    expect(reasonCode("x".repeat(100))).toHaveLength(60)
  })
})

describe("announceOfferPriced", () => {
  it("hands listeners a cart's delivery and collection options with what the provider answered", () => {
    const heard: OfferPriced[] = []
    const listener = (offer: OfferPriced) => heard.push(offer)
    onOfferPriced(listener)
    announceOfferPriced(context(), { id: "lastmile-collection" }, { calculated_amount: 0 })
    announceOfferPriced(
      context({ from_location: { id: "sloc_bank" } }),
      { id: "lastmile-collection" },
      { calculated_amount: undefined, lastmile: { unavailable_code: "rate_missing" } }
    )
    announceOfferPriced(context(), { id: "lastmile-next-day" }, {})
    // Not counted: a return option, a completed cart, the rates route's head start (no location), not a cart.
    announceOfferPriced(context(), { id: "lastmile-return" }, { calculated_amount: 0 })
    announceOfferPriced(context({ lastmile_cart_completed: true }), { id: "lastmile-next-day" }, {})
    announceOfferPriced(context({ from_location: undefined }), { id: "lastmile-next-day" }, {})
    announceOfferPriced(context({ id: undefined }), { id: "lastmile-next-day" }, {})
    expect(heard.map((o) => [o.fulfillment_option, o.stock_location_id, o.unavailable])).toEqual([
      ["lastmile-collection", "sloc_soho", null],
      ["lastmile-collection", "sloc_bank", "rate_missing"],
      ["lastmile-next-day", "sloc_soho", "not_priced"],
    ])
    expect(heard[0]).toMatchObject({ cart_id: "cart_1", state: { currency: "gbp", email: "ada@example.com" } })
  })
})
