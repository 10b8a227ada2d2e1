import { LastmileSimulator, londonLocations } from "../../../../packages/simulator/src"
import { LastmileFulfillmentProviderService } from "../service"
import { announceStoreListChanged } from "../../../lib/service-client"
import { cartContext, useProviderAgainstSimulator } from "../../../../integration-tests/helpers/provider-fixture"
import { ukShopperAddress as shopper } from "../../../../integration-tests/helpers/service-requests"

const KEY = "lm_test_key_calculate"
const logger = { debug: jest.fn(), warn: jest.fn(), info: jest.fn(), error: jest.fn() }

/** The pricing context as the plugin's hook completes it: with the cart's email. */
const context = (overrides: Record<string, unknown> = {}, store?: { id: string; externalId?: string }) =>
  cartContext({ lastmile_customer_email: "ada@example.com", ...overrides }, store)

describe("calculatePrice", () => {
  const fixture = useProviderAgainstSimulator(KEY)
  let sim: LastmileSimulator
  let provider: LastmileFulfillmentProviderService
  beforeEach(() => {
    ;({ sim, provider } = fixture)
  })

  const stores = () => londonLocations(["DEMO-TEE"]).filter((l) => l.collectionEnabled)

  it("prices next-day delivery and every store from one upstream quote", async () => {
    const prices = await Promise.all([
      provider.calculatePrice({ id: "lastmile-next-day" }, {}, context()),
      ...stores().map((store) =>
        provider.calculatePrice(
          { id: "lastmile-collection" },
          {},
          context({}, { id: `sloc_${store.fulfilmentLocationId}`, externalId: store.externalLocationId! })
        )
      ),
    ])
    expect(prices).toHaveLength(11)
    expect(prices[0]).toMatchObject({
      calculated_amount: 4.95,
      is_calculated_price_tax_inclusive: false,
      lastmile: { available: true, rate_code: "NEXT_DAY", eligibility: "FULL", co2_savings: 0.42 },
    })
    expect(prices[0].lastmile?.window?.from).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(prices[1].lastmile).toMatchObject({
      available: true,
      rate_code: "SVC_COL",
      merchant_location_id: "store-covent-garden",
    })
    expect(prices[1].lastmile?.description).toContain("Covent Garden")
    expect(prices.slice(1).every((p) => p.calculated_amount === 0)).toBe(true)
    expect(sim.requests("quote")).toHaveLength(1)
    expect(sim.requests("quote")[0].body).toMatchObject({
      customer: { email: "ada@example.com", phoneNumber: "+447911123456" },
      delivery: { address: { country: "United Kingdom" } },
      order: { merchantOrderId: "cart_1", lineItems: [{ merchantProductId: "DEMO-TEE", quantity: 1 }] },
    })
  })

  it("quotes again when the cart changes, and not before", async () => {
    await provider.calculatePrice({ id: "lastmile-next-day" }, {}, context())
    await provider.calculatePrice({ id: "lastmile-next-day" }, {}, context())
    await provider.calculatePrice(
      { id: "lastmile-next-day" },
      {},
      context({ items: [{ variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 2 }] })
    )
    expect(sim.requests("quote")).toHaveLength(2)
  })

  it("prices each option once per cart state, and quotes again after a store's collection is switched", async () => {
    const camden = { id: "sloc_camden", externalId: "store-camden" }
    const first = await provider.calculatePrice({ id: "lastmile-collection" }, {}, context({}, camden))
    expect(await provider.calculatePrice({ id: "lastmile-collection" }, {}, context({}, camden))).toEqual(first)
    expect(sim.requests("quote")).toHaveLength(1)

    // The admin switched a store's collection at the service (Settings → Lastmile): no quote held may still offer it.
    sim.location("store-camden").collectionEnabled = false
    announceStoreListChanged()
    const after = await provider.calculatePrice({ id: "lastmile-collection" }, {}, context({}, camden))
    expect(sim.requests("quote")).toHaveLength(2)
    expect(after.calculated_amount).toBeUndefined()
    expect(after.lastmile).toMatchObject({ available: false, unavailable_code: "rate_missing" })
  })

  it("converts by the currency's exponent", async () => {
    sim.configure({ currency: "JPY" })
    const yen = await provider.calculatePrice({ id: "lastmile-next-day" }, {}, context({ currency_code: "jpy" }))
    expect(yen.calculated_amount).toBe(495)
  })

  it("leaves an option unpriced, without throwing, when the service is down, slow or in another currency", async () => {
    sim.addFault({ operation: "quote", kind: "status", status: 503 })
    const down = await provider.calculatePrice({ id: "lastmile-next-day" }, {}, context())
    expect(down.calculated_amount).toBeUndefined()

    sim.clearFaults()
    const other = await provider.calculatePrice(
      { id: "lastmile-next-day" },
      {},
      context({ id: "cart_eur", currency_code: "eur" })
    )
    expect(other.calculated_amount).toBeUndefined()

    // The service never answers: only the quote's budget can end the call.
    sim.addFault({ operation: "quote", kind: "timeout" })
    const slow = await provider.calculatePrice({ id: "lastmile-next-day" }, {}, context({ id: "cart_slow" }))
    expect(slow.calculated_amount).toBeUndefined()
  })

  it("never throws when the price cannot be converted, even with no currency in the context", async () => {
    sim.configure({ collection: { priceForm: "number", price: 150 } })
    const price = await provider.calculatePrice(
      { id: "lastmile-collection" },
      {},
      context({ currency_code: undefined }, { id: "sloc_camden", externalId: "store-camden" })
    )
    expect(price.calculated_amount).toBeUndefined()
  })

  it("leaves an option unpriced when the cart lacks what the service requires, without calling it", async () => {
    const price = await provider.calculatePrice(
      { id: "lastmile-next-day" },
      {},
      context({ shipping_address: { ...shopper, phone: null } })
    )
    expect(price.calculated_amount).toBeUndefined()
    expect(sim.requests("quote")).toHaveLength(0)
  })

  it("offers no collection from a store without stock", async () => {
    sim.location("store-camden").stock["DEMO-TEE"] = 0
    const camden = await provider.calculatePrice(
      { id: "lastmile-collection" },
      {},
      context({}, { id: "sloc_camden", externalId: "store-camden" })
    )
    expect(camden.calculated_amount).toBeUndefined()
  })

  it("says why an option is unavailable, in words a shopper can act on", async () => {
    const noPhone = await provider.calculatePrice(
      { id: "lastmile-next-day" },
      {},
      context({ shipping_address: { ...shopper, phone: null } })
    )
    expect(noPhone.lastmile).toMatchObject({
      available: false,
      unavailable_code: "input_incomplete",
      unavailable_reason: "Enter a phone number so the courier can reach you.",
    })
    sim.configure({ collection: { unavailable: "error" } })
    sim.location("store-camden").stock["DEMO-TEE"] = 0
    const camden = await provider.calculatePrice(
      { id: "lastmile-collection" },
      {},
      context({ id: "cart_camden" }, { id: "sloc_camden", externalId: "store-camden" })
    )
    expect(camden.lastmile).toMatchObject({ available: false, unavailable_code: "rate_error" })
    expect(camden.lastmile?.unavailable_reason).toContain("does not have every item in stock")
  })

  it("sends the dispatch address from the pricing context as the quote's collection address", async () => {
    await provider.calculatePrice(
      { id: "lastmile-collection" },
      {},
      context(
        {
          lastmile_dispatch_address: {
            address_1: "1 Depot Lane",
            city: "London",
            postal_code: "NW10 1AA",
            country_code: "gb",
          },
        },
        { id: "sloc_camden", externalId: "store-camden" }
      )
    )
    expect(sim.requests("quote")[0].body).toMatchObject({ collection: { address: { line1: "1 Depot Lane" } } })
  })

  it("attributes collection rates that name no store by the service's store list", async () => {
    sim.configure({ collection: { locationField: false } })
    const camden = await provider.calculatePrice(
      { id: "lastmile-collection" },
      {},
      context({}, { id: "sloc_camden", externalId: "store-camden" })
    )
    expect(camden.calculated_amount).toBe(0)
    expect(camden.lastmile?.description).toContain("Camden")
    expect(sim.requests("listLocations")).toHaveLength(1)
  })
})

describe("outage fallback and tax", () => {
  let sim: LastmileSimulator
  let provider: LastmileFulfillmentProviderService

  beforeEach(async () => {
    sim = new LastmileSimulator({ config: { apiKey: KEY }, locations: londonLocations(["DEMO-TEE"]) })
    await sim.start()
    provider = new LastmileFulfillmentProviderService({ logger } as never, {
      api_key: KEY,
      base_url: sim.url,
      quote_budget_ms: 500,
      fallback_amounts: { gbp: 5.95 },
      prices_include_tax: true,
    })
  })

  afterEach(async () => {
    await sim.stop()
  })

  it("offers delivery at the fallback amount while the service is down, but no store", async () => {
    sim.addFault({ operation: "quote", kind: "status", status: 503 })
    const delivery = await provider.calculatePrice({ id: "lastmile-next-day" }, {}, context())
    expect(delivery).toMatchObject({
      calculated_amount: 5.95,
      is_calculated_price_tax_inclusive: true,
      lastmile: { available: true, fallback: true },
    })
    const store = await provider.calculatePrice(
      { id: "lastmile-collection" },
      {},
      context({}, { id: "sloc_camden", externalId: "store-camden" })
    )
    expect(store.calculated_amount).toBeUndefined()
  })

  it("gives Medusa no price for a cart's own method whose rate the changed cart cannot price, so it is removed", async () => {
    // The shopper chose "Next day delivery" at 4.95 for this address; the method's data names that rate.
    const chosen = await provider.validateFulfillmentData(
      { id: "lastmile-next-day" },
      { rate_code: "NEXT_DAY" },
      context() as never
    )
    const held = {
      option_id: "lastmile-next-day",
      location_id: "sloc_warehouse",
      amount: 4.95,
      rate_code: chosen.rateCode ?? null,
      rate_name: chosen.rateName ?? null,
      rate_chosen: true,
      description: chosen.description ?? null,
      window: chosen.window ?? null,
      quoted_at: chosen.quotedAt ?? null,
      quoted_for: chosen.quotedFor ?? null,
      fallback: false,
    }
    sim.addFault({ operation: "quote", kind: "status", status: 503 })
    const movedAddress = { ...shopper, address_1: "1 Horse Guards Road", postal_code: "SW1A 2HQ" }
    const moved = context({ lastmile_chosen_methods: [held], shipping_address: movedAddress })
    // Medusa's refresh hands back the method's own data: the rate it names, or no price at all.
    const refreshed = await provider.calculatePrice({ id: "lastmile-next-day" }, { ...chosen }, moved)
    expect(refreshed.calculated_amount).toBeUndefined()
    expect(refreshed.lastmile).toMatchObject({ available: false, unavailable_code: "chosen_rate_lost" })
    // The same cart listed or chosen anew (the client's data): the option at the estimate, as an estimate.
    const listed = await provider.calculatePrice({ id: "lastmile-next-day" }, {}, moved)
    expect(listed).toMatchObject({ calculated_amount: 5.95, lastmile: { fallback: true, name: null, window: null } })
    // Unchanged, the cart's method is still its rate at its price (its state's quote is still held).
    const unchanged = await provider.calculatePrice(
      { id: "lastmile-next-day" },
      { ...chosen },
      context({ lastmile_chosen_methods: [held] })
    )
    expect(unchanged).toMatchObject({ calculated_amount: 4.95, lastmile: { available: true, rate_code: "NEXT_DAY" } })
    // A method chosen at the estimate names no rate: priced as the option is.
    const estimate = await provider.calculatePrice(
      { id: "lastmile-next-day" },
      { provider: "lastmile", kind: "delivery", fallback: true },
      context({
        lastmile_chosen_methods: [{ ...held, rate_code: null, rate_name: null, fallback: true }],
        shipping_address: movedAddress,
      })
    )
    expect(estimate.calculated_amount).toBe(5.95)
  })

  it("does not use the fallback when the service answers that it cannot serve the address", async () => {
    const price = await provider.calculatePrice(
      { id: "lastmile-next-day" },
      {},
      context({ shipping_address: { ...shopper, postal_code: "ZE1 0AA" } })
    )
    expect(price.calculated_amount).toBeUndefined()
    expect(price.lastmile?.unavailable_code).toBe("route_not_served")
  })
})
