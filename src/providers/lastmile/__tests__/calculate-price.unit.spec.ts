import { LastmileSimulator, londonLocations } from "../../../simulator"
import { alwaysOpenHours } from "../../../simulator/defaults"
import { LastmileFulfillmentProviderService } from "../service"
import { ukShopperAddress as shopper } from "../../../test-support/service-requests"

const KEY = "lm_test_key_calculate"
const logger = { debug: jest.fn(), warn: jest.fn(), info: jest.fn(), error: jest.fn() }

function context(overrides: Record<string, unknown> = {}, location?: { id: string; externalId?: string }) {
  return {
    id: "cart_1",
    currency_code: "gbp",
    items: [{ variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 1 }],
    shipping_address: shopper,
    lastmile_customer_email: "ada@example.com",
    from_location: {
      id: location?.id ?? "sloc_warehouse",
      address: {
        address_1: "Unit 7, Abbey Road",
        city: "London",
        postal_code: "NW10 7SJ",
        country_code: "gb",
        metadata: location?.externalId ? { external_location_id: location.externalId } : null,
      },
    },
    ...overrides,
  } as never
}

describe("calculatePrice", () => {
  let sim: LastmileSimulator
  let provider: LastmileFulfillmentProviderService

  beforeEach(async () => {
    const locations = londonLocations(["DEMO-TEE"]).map((l) => ({ ...l, operatingHours: alwaysOpenHours() }))
    sim = new LastmileSimulator({ config: { apiKey: KEY }, locations })
    await sim.start()
    provider = new LastmileFulfillmentProviderService({ logger } as never, {
      api_key: KEY,
      base_url: sim.url,
      quote_budget_ms: 500,
    })
  })

  afterEach(async () => {
    await sim.stop()
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
    expect(prices[0]).toEqual({ calculated_amount: 4.95, is_calculated_price_tax_inclusive: false })
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

    sim.addFault({ operation: "quote", kind: "timeout" })
    const started = Date.now()
    const slow = await provider.calculatePrice({ id: "lastmile-next-day" }, {}, context({ id: "cart_slow" }))
    expect(slow.calculated_amount).toBeUndefined()
    expect(Date.now() - started).toBeLessThan(1500)
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
})
