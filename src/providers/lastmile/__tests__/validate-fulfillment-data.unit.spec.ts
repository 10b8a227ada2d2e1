import { MedusaError } from "@medusajs/framework/utils"
import type { LastmileSimulator } from "../../../../packages/simulator/src"
import { cartContext, useProviderAgainstSimulator } from "../../../../integration-tests/helpers/provider-fixture"
import { ukShopperAddress as shopper } from "../../../../integration-tests/helpers/service-requests"
import type { LastmileFulfillmentProviderService } from "../service"

const KEY = "lm_test_key_validate"

/** The context Medusa gives validateFulfillmentData: the cart, with its email, and the option's location. */
const cart = (overrides: Record<string, unknown> = {}, store?: { id: string; externalId: string }) =>
  cartContext({ id: "cart_v", email: "ada@example.com", ...overrides }, store)

async function rejection(promise: Promise<unknown>): Promise<MedusaError> {
  try {
    await promise
  } catch (error) {
    return error as MedusaError
  }
  throw new Error("expected a rejection")
}

describe("validateFulfillmentData", () => {
  const fixture = useProviderAgainstSimulator(KEY)
  let sim: LastmileSimulator
  let provider: LastmileFulfillmentProviderService
  beforeEach(() => {
    ;({ sim, provider } = fixture)
  })

  it("returns what the shopper chose for a delivery, and nothing private (the store API shows it)", async () => {
    const data = await provider.validateFulfillmentData({ id: "lastmile-next-day" }, {}, cart())
    expect(data).toMatchObject({
      provider: "lastmile",
      kind: "delivery",
      rateCode: "NEXT_DAY",
      rateChosen: false,
      quotedAt: expect.any(String),
      fallback: false,
    })
    expect(data.window?.from).toMatch(/T/)
    expect(JSON.stringify(data)).not.toMatch(/\+447911|sloc_|quotedAmount|optionId/)
  })

  it("returns the store as the shopper sees it for a collection, with its readiness text", async () => {
    const data = await provider.validateFulfillmentData(
      { id: "lastmile-collection" },
      {},
      cart({}, { id: "sloc_camden", externalId: "store-camden" })
    )
    expect(data).toMatchObject({
      kind: "collection",
      rateCode: "SVC_COL",
      store: { address: { address_1: "Unit 7, Abbey Road" } },
    })
    expect(data.description).toContain("Camden")
    expect(JSON.stringify(data)).not.toMatch(/store-camden|sloc_camden/)
  })

  it("keeps the shopper's note to the courier, cleaned, and the cart's note when a new choice says nothing of it", async () => {
    const noted = await provider.validateFulfillmentData(
      { id: "lastmile-next-day" },
      { delivery_note: "Gate \u202e4821\u202c\nporch" },
      cart()
    )
    expect(noted.deliveryNote).toBe("Gate 4821 porch")
    const held = { shipping_methods: [{ data: noted }] }
    const again = await provider.validateFulfillmentData({ id: "lastmile-next-day" }, {}, cart(held))
    expect(again.deliveryNote).toBe("Gate 4821 porch")
    const emptied = await provider.validateFulfillmentData(
      { id: "lastmile-next-day" },
      { delivery_note: "" },
      cart(held)
    )
    expect(emptied).not.toHaveProperty("deliveryNote")
    const tooLong = await rejection(
      provider.validateFulfillmentData({ id: "lastmile-next-day" }, { delivery_note: "x".repeat(281) }, cart())
    )
    expect(tooLong.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(tooLong.message).toContain("at most 280 characters")
    // Medusa creates the fulfillment with the method's data and merges the provider's answer over it.
    expect((await provider.createFulfillment(noted)).data).toMatchObject({ deliveryNote: null })
    expect((await provider.createFulfillment({})).data).not.toHaveProperty("deliveryNote")
  })

  it("reuses the checkout quote of the same cart state", async () => {
    await provider.calculatePrice(
      { id: "lastmile-next-day" },
      {},
      cart({ lastmile_customer_email: "ada@example.com" }) as never
    )
    await provider.validateFulfillmentData({ id: "lastmile-next-day" }, {}, cart())
    expect(sim.requests("quote")).toHaveLength(1)
  })

  it("checks a cart of two shipping profiles against the lines the option was priced with, from the same quote", async () => {
    // Medusa prices the option with its profile's lines (the tee), then validates with the whole cart.
    const tee = { id: "li_tee", variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 1 }
    const poster = { id: "li_poster", variant_id: "variant_poster", variant_sku: "DEMO-POSTER", quantity: 2 }
    const profiled = (line: typeof tee, profile: string) => ({
      ...line,
      variant: { product: { shipping_profile: { id: profile } } },
    })
    const lines = [profiled(tee, "sp_parcels"), profiled(poster, "sp_posters")]
    await provider.calculatePrice(
      { id: "lastmile-next-day" },
      {},
      cart({ lastmile_customer_email: "ada@example.com", items: [lines[0]] }) as never
    )
    const data = await provider.validateFulfillmentData({ id: "lastmile-next-day" }, {}, cart({ items: lines }))
    expect(data).toMatchObject({ kind: "delivery", rateCode: "NEXT_DAY" })
    expect(sim.requests("quote")).toHaveLength(1)
    expect(sim.requests("quote")[0].body).toMatchObject({
      order: { lineItems: [{ merchantProductId: "DEMO-TEE", quantity: 1 }] },
    })
  })

  it.each([
    [{ shipping_address: { ...shopper, phone: "" } }, "Enter a phone number so the courier can reach you."],
    [{ shipping_address: { ...shopper, phone: "12" } }, "Enter a phone number that can be dialled"],
    [{ email: null }, "Enter an email address"],
    [{ shipping_address: { ...shopper, postal_code: "" } }, "The shipping address needs a postcode."],
  ])("tells the shopper what to fix (%j)", async (overrides, message) => {
    const error = await rejection(provider.validateFulfillmentData({ id: "lastmile-next-day" }, {}, cart(overrides)))
    expect(error).toBeInstanceOf(MedusaError)
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toContain(message)
  })

  it("refuses a store that can no longer offer collection, saying why", async () => {
    sim.configure({ collection: { unavailable: "error" } })
    sim.location("store-camden").collectionEnabled = false
    const error = await rejection(
      provider.validateFulfillmentData(
        { id: "lastmile-collection" },
        {},
        cart({}, { id: "sloc_camden", externalId: "store-camden" })
      )
    )
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(error.message).toMatch(/^Collection from this store is no longer available: .*does not offer collection/)
  })

  it("refuses data of an option that is not lastmile's", async () => {
    const error = await rejection(provider.validateFulfillmentData({ id: "manual-fulfillment" }, {}, cart()))
    expect(error.type).toBe(MedusaError.Types.INVALID_DATA)
  })
})
