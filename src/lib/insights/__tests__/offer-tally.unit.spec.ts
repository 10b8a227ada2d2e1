import { type OfferPriced, announceOfferPriced, onOfferPriced } from "../offer-signal"
import { OfferTally, reasonCode } from "../offer-tally"

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
    ...overrides,
  }
}

describe("OfferTally", () => {
  it("counts each cart once a day, and each option once per cart, whichever route priced it how often", () => {
    const tally = new OfferTally({ timeZone: TZ })
    for (let i = 0; i < 3; i++) {
      tally.priced(offer())
      tally.priced(offer({ fulfillment_option: "lastmile-next-day", stock_location_id: "sloc_warehouse" }))
      tally.priced(offer({ stock_location_id: "sloc_bank", unavailable: "rate_missing" }))
    }
    const { increments, counted } = tally.drain()
    expect(increments).toEqual(
      expect.arrayContaining([
        { day: "2026-11-10", kind: "cart", fulfillment_option: "", stock_location_id: "", reason: "", count: 1 },
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
    // One cart, announced once with the options it was offered.
    expect(counted).toEqual([
      {
        day: "2026-11-10",
        cart_id: "cart_1",
        options: [
          { fulfillment_option: "lastmile-collection", stock_location_id: "sloc_soho", offered: true, reason: null },
          { fulfillment_option: "lastmile-next-day", stock_location_id: "sloc_warehouse", offered: true, reason: null },
          {
            fulfillment_option: "lastmile-collection",
            stock_location_id: "sloc_bank",
            offered: false,
            reason: "rate_missing",
          },
        ],
      },
    ])

    // Priced again, in any state: nothing new, and no second announcement. The next day counts again.
    tally.priced(offer())
    tally.priced(offer({ unavailable: "service_unavailable" }))
    expect(tally.drain()).toEqual({ increments: [], counted: [] })
    tally.priced(offer({ at: Date.parse("2026-11-11T00:30:00Z") }))
    const next = tally.drain()
    expect(next.increments.filter((i) => i.kind === "cart").map((i) => [i.day, i.count])).toEqual([["2026-11-11", 1]])
    expect(next.counted.map((c) => c.day)).toEqual(["2026-11-11"])
  })

  it("counts a cart changed twelve times once, and an option offered in any of its states as offered", () => {
    const tally = new OfferTally({ timeZone: TZ })
    const all = new Map<string, number>()
    const write = () => {
      for (const row of tally.drain().increments) {
        const key = [row.kind, row.fulfillment_option, row.stock_location_id, row.reason].join(" ")
        all.set(key, (all.get(key) ?? 0) + row.count)
      }
    }
    // First unavailable for a missing phone, then for the address, then offered; flushed between changes.
    tally.priced(offer({ unavailable: "input_incomplete" }))
    write()
    tally.priced(offer({ unavailable: "route_not_served" }))
    write()
    for (let change = 0; change < 10; change++) {
      tally.priced(offer({ unavailable: change % 2 ? "service_unavailable" : null }))
      tally.priced(offer({ stock_location_id: "sloc_bank", unavailable: change % 3 ? "rate_missing" : "rate_error" }))
      write()
    }
    expect(Object.fromEntries([...all].filter(([, n]) => n !== 0))).toEqual({
      "cart   ": 1,
      "offered lastmile-collection sloc_soho ": 1,
      // Never offered: counted once, under its latest reason (the tenth change's).
      "unavailable lastmile-collection sloc_bank rate_error": 1,
    })
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
    expect(heard[0]).toMatchObject({ cart_id: "cart_1", fulfillment_option: "lastmile-collection" })
  })
})
