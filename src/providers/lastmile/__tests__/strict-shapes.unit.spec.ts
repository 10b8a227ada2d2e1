/**
 * The provider against the simulator's strict profile: every shape the spec
 * allows, not only the ones the default simulator sends.
 */
import { LastmileSimulator, alwaysOpenHours, londonLocations } from "../../../../packages/simulator/src"
import { cartContext } from "../../../../integration-tests/helpers/provider-fixture"
import { ukShopperAddress } from "../../../../integration-tests/helpers/service-requests"
import { LastmileFulfillmentProviderService } from "../service"
import type { LastmileShippingMethodData } from "../../../lib/contracts/plugin-data"
import type { ChosenMethod } from "../../../lib/checkout/pricing-additions"
import type { LastmileProviderOptions } from "../../../lib/options/provider-options"

const KEY = "lm_test_key_shapes"
const context = (overrides: Record<string, unknown> = {}, store?: { id: string; externalId?: string }) =>
  cartContext({ lastmile_customer_email: "ada@example.com", ...overrides }, store)
const camden = { id: "sloc_camden", externalId: "store-camden" }

/** The cart's method as the server stored it, which the pricing hook hands the provider (never the request's data). */
const stored = (
  optionId: string,
  data: LastmileShippingMethodData,
  amount: number,
  locationId: string | null = null
) => ({
  lastmile_chosen_methods: [
    {
      option_id: optionId,
      location_id: locationId,
      amount,
      rate_code: data.rateCode ?? null,
      rate_name: data.rateName ?? null,
      rate_chosen: data.rateChosen === true,
      description: data.description ?? null,
      window: data.window ?? null,
      quoted_at: data.quotedAt ?? null,
      quoted_for: data.quotedFor ?? null,
      fallback: data.fallback === true,
    } satisfies ChosenMethod,
  ],
})

describe("the provider against a service answering in the strict shapes", () => {
  let sim: LastmileSimulator
  const logger = { debug: jest.fn(), warn: jest.fn(), info: jest.fn(), error: jest.fn() }
  const providers: LastmileFulfillmentProviderService[] = []

  const provider = (options: Omit<LastmileProviderOptions, "api_key" | "base_url"> = {}) => {
    const created = new LastmileFulfillmentProviderService({ logger } as never, {
      api_key: KEY,
      base_url: sim.url,
      // Roomy: these tests are about shapes, not the budget (the two that are set their own), and a loaded CI machine is slow.
      quote_budget_ms: 3000,
      delivery_types: ["NEXT_DAY", "SAME_DAY"],
      ...options,
    })
    providers.push(created)
    return created
  }

  beforeEach(async () => {
    jest.clearAllMocks()
    const locations = londonLocations(["DEMO-TEE"]).map((l) => ({ ...l, operatingHours: alwaysOpenHours() }))
    sim = new LastmileSimulator({ profile: "strict", config: { apiKey: KEY }, locations })
    await sim.start()
  })

  afterEach(async () => {
    await sim.stop()
  })

  it("prices each delivery type from its own quote, and collection from a store named only by its address", async () => {
    const lastmile = provider()
    const [nextDay, sameDay, store] = await Promise.all([
      lastmile.calculatePrice({ id: "lastmile-next-day" }, {}, context()),
      lastmile.calculatePrice({ id: "lastmile-same-day" }, {}, context()),
      lastmile.calculatePrice({ id: "lastmile-collection" }, {}, context({}, camden)),
    ])
    expect(nextDay).toMatchObject({ calculated_amount: 3.95, lastmile: { available: true, name: "Next day eco" } })
    expect(nextDay.lastmile?.rates.map((r) => r.amount)).toEqual([3.95, 4.95, null])
    expect(sameDay).toMatchObject({ calculated_amount: 8.95, lastmile: { name: "Same day evening" } })
    expect(store).toMatchObject({
      calculated_amount: 0,
      lastmile: { available: true, merchant_location_id: "store-camden" },
    })
    expect(
      sim
        .requests("quote")
        .map((r) => (r.body as { deliveryType: string }).deliveryType)
        .sort()
    ).toEqual(["NEXT_DAY", "SAME_DAY"])
  })

  it("prices the rate named by data.rate_code on /calculate, and by a stored method on a refresh", async () => {
    const lastmile = provider()
    const listed = (await lastmile.calculatePrice({ id: "lastmile-next-day" }, {}, context())).lastmile!.rates
    const standard = listed.find((r) => r.name === "Next day")!
    const asked = await lastmile.calculatePrice(
      { id: "lastmile-next-day" },
      { rate_code: standard.rate_code },
      context()
    )
    expect(asked.calculated_amount).toBe(4.95)

    const data = await lastmile.validateFulfillmentData(
      { id: "lastmile-next-day" },
      { rate_code: standard.rate_code },
      context() as never
    )
    expect(data).toMatchObject({ rateCode: standard.rate_code, rateName: "Next day", rateChosen: true })

    // Another cart state: a new quote with new codes; the stored rate is found again by its name.
    const refreshed = await lastmile.calculatePrice(
      { id: "lastmile-next-day" },
      data,
      context({
        items: [{ variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 2 }],
        ...stored("lastmile-next-day", data, 4.95),
      })
    )
    expect(refreshed.calculated_amount).toBe(4.95)
    expect(refreshed.lastmile?.rate_code).not.toBe(standard.rate_code)

    await expect(
      lastmile.validateFulfillmentData({ id: "lastmile-next-day" }, { rate_code: 7 }, context() as never)
    ).rejects.toMatchObject({ type: "invalid_data" })
  })

  it("keeps a chosen method's price through a transient failure while its quote is young, delivery and collection", async () => {
    const lastmile = provider({ keep_chosen_price_minutes: 10, fallback_amounts: { gbp: 5.95 } })
    const delivery = await lastmile.validateFulfillmentData({ id: "lastmile-next-day" }, {}, context() as never)
    const collection = await lastmile.validateFulfillmentData(
      { id: "lastmile-collection" },
      {},
      context({}, camden) as never
    )

    sim.addFault({ operation: "quote", kind: "status", status: 503 })
    const changed = { id: "cart_changed" }
    const onDelivery = stored("lastmile-next-day", delivery, 3.95)
    const keptDelivery = await lastmile.calculatePrice(
      { id: "lastmile-next-day" },
      {},
      context({ ...changed, ...onDelivery })
    )
    expect(keptDelivery).toMatchObject({ calculated_amount: 3.95, lastmile: { kept: true, fallback: false } })
    const onStore = stored("lastmile-collection", collection, 0, camden.id)
    const keptStore = await lastmile.calculatePrice(
      { id: "lastmile-collection" },
      {},
      context({ ...changed, ...onStore }, camden)
    )
    expect(keptStore).toMatchObject({ calculated_amount: 0, lastmile: { kept: true } })
    // Not for another store's option, and not once the quote is older than the window.
    const brixton = await lastmile.calculatePrice(
      { id: "lastmile-collection" },
      {},
      context({ ...changed, ...onStore }, { id: "sloc_brixton", externalId: "store-brixton" })
    )
    expect(brixton.calculated_amount).toBeUndefined()
    const old = stored(
      "lastmile-next-day",
      { ...delivery, quotedAt: new Date(Date.now() - 11 * 60_000).toISOString() },
      3.95
    )
    const stale = await lastmile.calculatePrice({ id: "lastmile-next-day" }, {}, context({ ...changed, ...old }))
    expect(stale).toMatchObject({ calculated_amount: 5.95, lastmile: { fallback: true } })
  })

  it("keeps no price once the address or the basket differs from what was quoted, nor for a method that records no state", async () => {
    const lastmile = provider({ keep_chosen_price_minutes: 10, fallback_amounts: { gbp: 5.95 } })
    const delivery = await lastmile.validateFulfillmentData({ id: "lastmile-next-day" }, {}, context() as never)
    const collection = await lastmile.validateFulfillmentData(
      { id: "lastmile-collection" },
      {},
      context({}, camden) as never
    )
    expect(delivery.quotedFor).toMatch(/^[\w-]{22}$/)
    // The digest only: nothing of the address or the basket in words.
    expect(JSON.stringify(delivery)).not.toMatch(/Downing|DEMO-TEE/)

    sim.addFault({ operation: "quote", kind: "status", status: 503 })
    const onDelivery = stored("lastmile-next-day", delivery, 3.95)
    const onStore = stored("lastmile-collection", collection, 0, camden.id)
    const price = (optionId: string, overrides: Record<string, unknown>, store?: typeof camden) =>
      lastmile.calculatePrice({ id: optionId }, {}, context(overrides, store))

    // Spelled differently, the same address: still the state it was quoted for.
    const respelled = { ...ukShopperAddress, postal_code: ukShopperAddress.postal_code.toLowerCase() }
    expect(await price("lastmile-next-day", { shipping_address: respelled, ...onDelivery })).toMatchObject({
      calculated_amount: 3.95,
      lastmile: { kept: true },
    })
    // Another address: priced as a new cart is during an outage (the fallback for delivery, nothing for a store).
    const moved = { ...ukShopperAddress, address_1: "1 Commercial Street", city: "Lerwick", postal_code: "ZE1 0AA" }
    expect(await price("lastmile-next-day", { shipping_address: moved, ...onDelivery })).toMatchObject({
      calculated_amount: 5.95,
      lastmile: { fallback: true, kept: false },
    })
    const movedStore = await price("lastmile-collection", { shipping_address: moved, ...onStore }, camden)
    expect(movedStore.calculated_amount).toBeUndefined()
    expect(movedStore.lastmile).toMatchObject({ available: false, unavailable_code: "service_unavailable" })
    // Another quantity, another product: the same.
    const more = [{ variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 2 }]
    expect((await price("lastmile-collection", { items: more, ...onStore }, camden)).calculated_amount).toBeUndefined()
    const other = [...more, { variant_id: "variant_mug", variant_sku: "DEMO-MUG", quantity: 1 }]
    expect(await price("lastmile-next-day", { items: other, ...onDelivery })).toMatchObject({
      calculated_amount: 5.95,
      lastmile: { fallback: true },
    })
    // A method stored by an earlier version records no state: it keeps nothing.
    const { quotedFor: _quotedFor, ...legacy } = delivery
    const legacyMethod = { id: "cart_legacy", ...stored("lastmile-next-day", legacy, 3.95) }
    expect(await price("lastmile-next-day", legacyMethod)).toMatchObject({
      calculated_amount: 5.95,
      lastmile: { fallback: true },
    })
  })

  it("offers no fallback after a refusal, and tells the merchant once a minute, without the key", async () => {
    const lastmile = provider({ fallback_amounts: { gbp: 5.95 } })
    sim.addFault({ operation: "quote", kind: "status", status: 401 })
    const first = await lastmile.calculatePrice({ id: "lastmile-next-day" }, {}, context({ id: "cart_a" }))
    const second = await lastmile.calculatePrice({ id: "lastmile-next-day" }, {}, context({ id: "cart_b" }))
    expect(first).toMatchObject({ calculated_amount: undefined, lastmile: { available: false, fallback: false } })
    expect(second.calculated_amount).toBeUndefined()
    const lines = logger.warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("refused"))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("401")
    expect(lines[0]).toContain("api_key")
    expect(logger.warn.mock.calls.flat().join("\n")).not.toContain(KEY)

    sim.clearFaults()
    sim.addFault({ operation: "quote", kind: "status", status: 429 })
    const limited = await lastmile.calculatePrice({ id: "lastmile-next-day" }, {}, context({ id: "cart_c" }))
    expect(limited).toMatchObject({ calculated_amount: 5.95, lastmile: { fallback: true } })
  })

  it("never waits on a slow store list beyond the budget, and uses it once it arrives", async () => {
    sim.addFault({ operation: "listLocations", kind: "latency", latencyMs: 1500, times: 1 })
    const lastmile = provider({ quote_budget_ms: 400 })
    // Had it waited for the list, the store's rate would be placed and priced.
    const early = await lastmile.calculatePrice({ id: "lastmile-collection" }, {}, context({}, camden))
    expect(early.calculated_amount).toBeUndefined()
    expect(early.lastmile?.unavailable_code).toBe("store_ambiguous")

    await new Promise((resolve) => setTimeout(resolve, 1700))
    const later = await lastmile.calculatePrice({ id: "lastmile-collection" }, {}, context({}, camden))
    expect(later.calculated_amount).toBe(0)
    expect(sim.requests("listLocations").length).toBeGreaterThanOrEqual(1)
  })

  it("never takes a price, store or rate from the data a client sends, live or during an outage", async () => {
    const lastmile = provider({ keep_chosen_price_minutes: 10, fallback_amounts: { gbp: 5.95 } })
    const forged = {
      optionId: "lastmile-next-day",
      kind: "collection",
      provider: "lastmile",
      quotedAmount: -500,
      quotedCurrency: "GBP",
      quotedAt: new Date().toISOString(),
      rateCode: "NEXT_DAY",
      rateName: "Free",
      rateChosen: true,
      merchantLocationId: "store-camden",
      stockLocationId: "sloc_camden",
      deliveryType: "SAME_DAY",
      fallback: false,
    }
    const live = await lastmile.calculatePrice({ id: "lastmile-next-day" }, forged, context({ id: "cart_forged" }))
    expect(live.calculated_amount).toBe(3.95)
    sim.addFault({ operation: "quote", kind: "status", status: 503 })
    const down = await lastmile.calculatePrice({ id: "lastmile-next-day" }, forged, context({ id: "cart_forged_2" }))
    expect(down).toMatchObject({ calculated_amount: 5.95, lastmile: { fallback: true, kept: false } })
    const stored = await lastmile.validateFulfillmentData({ id: "lastmile-next-day" }, forged, context() as never)
    expect(stored).not.toHaveProperty("quotedAmount")
    expect(stored).toMatchObject({ fallback: true, rateChosen: false })
  })

  it("refuses a rate_code no quote can confirm during an outage, and says so for a malformed one", async () => {
    const lastmile = provider({ fallback_amounts: { gbp: 5.95 } })
    sim.addFault({ operation: "quote", kind: "status", status: 503 })
    await expect(
      lastmile.validateFulfillmentData({ id: "lastmile-next-day" }, { rate_code: "ND-STD-q1" }, context() as never)
    ).rejects.toMatchObject({ type: "invalid_data", message: expect.stringContaining("cannot be confirmed") })
    // Without a rate asked for, the option is still offered at the fallback.
    const plain = await lastmile.validateFulfillmentData({ id: "lastmile-next-day" }, {}, context() as never)
    expect(plain).toMatchObject({ fallback: true, rateCode: null })

    const malformed = await lastmile.calculatePrice({ id: "lastmile-next-day" }, { rate_code: 7 }, context())
    expect(malformed).toMatchObject({
      calculated_amount: undefined,
      lastmile: { unavailable_code: "rate_code_invalid", unavailable_reason: expect.stringContaining("rate_code") },
    })
  })

  it("reads the store list again for a rate it cannot place, not for a store the service stopped quoting", async () => {
    const lastmile = provider()
    const camdenAtService = sim.removeLocation("store-camden")
    const gone = await lastmile.calculatePrice({ id: "lastmile-collection" }, {}, context({ id: "cart_1" }, camden))
    expect(gone.lastmile?.unavailable_code).toBe("rate_missing")
    const readsBefore = sim.requests("listLocations").length

    // Back at the service moments later: its rate names no store the held list knows, so one fresh read places it.
    sim.addLocation(camdenAtService)
    const back = await lastmile.calculatePrice({ id: "lastmile-collection" }, {}, context({ id: "cart_2" }, camden))
    expect(back).toMatchObject({ calculated_amount: 0, lastmile: { merchant_location_id: "store-camden" } })
    expect(sim.requests("listLocations").length).toBeGreaterThan(readsBefore)
  })

  // That the later operations do not wait again is the store directory's (store-directory.unit.spec.ts).
  it("reads a slow store list once, not on every cart operation", async () => {
    sim.addFault({ operation: "listLocations", kind: "latency", latencyMs: 3000, times: 1 })
    const lastmile = provider({ quote_budget_ms: 300 })
    await lastmile.calculatePrice({ id: "lastmile-collection" }, {}, context({}, camden))
    const later = await Promise.all(
      ["a", "b", "c"].map((id) =>
        lastmile.calculatePrice({ id: "lastmile-collection" }, {}, context({ id: `cart_${id}` }, camden))
      )
    )
    expect(later.map((price) => price.lastmile?.unavailable_code)).toEqual(Array(3).fill("store_ambiguous"))
    expect(sim.requests("listLocations")).toHaveLength(1)
  })

  it("logs a refusal at most once a minute, whatever its cause", async () => {
    const lastmile = provider()
    sim.addFault({ operation: "quote", kind: "status", status: 401, times: 1 })
    await lastmile.calculatePrice({ id: "lastmile-next-day" }, {}, context({ id: "cart_401" }))
    sim.addFault({ operation: "quote", kind: "status", status: 422, times: 1 })
    await lastmile.calculatePrice({ id: "lastmile-next-day" }, {}, context({ id: "cart_422" }))
    expect(logger.warn.mock.calls.filter(([line]) => String(line).includes("refused"))).toHaveLength(1)
  })
})
