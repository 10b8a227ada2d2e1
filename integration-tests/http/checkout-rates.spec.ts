import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import type { LastmileLostChoice } from "medusa-plugin-lastmile-storefront"
import type { TaskView } from "../../src/lib/contracts/admin-api"
import { defaultConfig } from "../../packages/simulator/src"
import { MUG_SKU, type SeededStore, TEE_SKU } from "../helpers/seed-store"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { useSimulator } from "../helpers/simulator"
import { Storefront, londonShopper } from "../helpers/storefront"
import { waitForTask } from "../helpers/orders"
import { adminFor } from "../helpers/admin"

jest.setTimeout(120_000)

const COLLECTION_OUTAGE_REASON = "Collection cannot be confirmed right now. Please try again in a moment."

const { simulator } = useSimulator(
  { locations: londonTestLocations() },
  { LASTMILE_FALLBACK_AMOUNTS: "gbp:5.95", LASTMILE_QUOTE_BUDGET_MS: "1000" }
)

interface Rate {
  shipping_option_id: string
  name: string
  type: string
  amount: number | null
  currency_code: string
  description: string | null
  window: { from: string; to: string } | null
  co2_savings: number | null
  stock_location_id: string | null
  merchant_location_id: string | null
  available: boolean
  unavailable_reason: string | null
  fallback: boolean
  kept: boolean
  rate_name: string | null
  rates: { rate_code: string; name: string | null; amount: number | null; available: boolean }[]
  quoted_at: string | null
}
interface RatesBody {
  eligibility: string | null
  currency_code: string
  rates: Rate[]
  lost_choice?: LastmileLostChoice | null
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront

    const london = useLondonStore(simulator, { api, getContainer })
    beforeAll(() => {
      ;({ seed, shop } = london)
    })

    beforeEach(() => {
      simulator.configure({ currency: "GBP", collection: { unavailable: "omit", locationField: true } })
      simulator.clearRequests()
    })

    const gbpCart = (overrides: Partial<typeof londonShopper> = {}, items = [{ sku: "tee", quantity: 1 }]) =>
      shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: { ...londonShopper, ...overrides },
        items: items.map((i) => ({ variant_id: seed.variants[i.sku as "tee" | "mug"], quantity: i.quantity })),
      })

    const rates = async (cartId: string): Promise<RatesBody> => {
      const response = await shop.get<RatesBody>(`/store/lastmile/rates?cart_id=${cartId}`)
      expect(response.status).toBe(200)
      return response.data
    }
    /** Pays with Medusa's system provider and asks to complete the cart, as a storefront does: the answer as it comes. */
    const complete = async (cartId: string) => {
      const collection = await shop.post<{ payment_collection: { id: string } }>("/store/payment-collections", {
        cart_id: cartId,
      })
      await shop.post(`/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`, {
        provider_id: "pp_system_default",
      })
      return shop.post<{ type?: string; message?: string; order?: { id: string } }>(
        `/store/carts/${cartId}/complete`,
        {}
      )
    }
    const rateOf = (body: RatesBody, optionId: string) => body.rates.find((r) => r.shipping_option_id === optionId)!
    const store = (body: RatesBody, externalId: string) => rateOf(body, seed.options.collection[externalId])

    describe("GET /store/lastmile/rates and /calculate", () => {
      it("price next-day delivery and every store from one quote; a cart change makes exactly one more", async () => {
        const cart = await gbpCart()
        // A store asks first: the quote still goes out from the dispatch warehouse.
        const camdenOption = seed.options.collection["store-camden"]
        const single = await shop.post(`/store/shipping-options/${camdenOption}/calculate`, { cart_id: cart.id })
        expect(single.status).toBe(200)
        expect(simulator.requests("quote")[0].body).toMatchObject({
          collection: { address: { line1: "Unit 7, Abbey Road", postcode: "NW10 7SJ", country: "United Kingdom" } },
        })
        const first = await rates(cart.id)

        expect(first.eligibility).toBe("FULL")
        expect(first.rates).toHaveLength(11)
        expect(first.rates.every((r) => r.available)).toBe(true)
        expect(rateOf(first, seed.options.nextDay)).toMatchObject({
          type: "delivery",
          amount: 4.95,
          currency_code: "gbp",
          co2_savings: 0.42,
          stock_location_id: seed.warehouseId,
        })
        expect(rateOf(first, seed.options.nextDay).window?.from).toMatch(/^\d{4}-\d\d-\d\dT/)
        expect(store(first, "store-camden")).toMatchObject({
          type: "collection",
          amount: 0,
          merchant_location_id: "store-camden",
          stock_location_id: seed.storeLocations["store-camden"],
        })
        expect(store(first, "store-camden").description).toContain("Collect from Camden store, 201 Camden High Street")
        expect(simulator.requests("quote")).toHaveLength(1)
        expect(simulator.requests("quote")[0].body).toMatchObject({
          customer: { email: "ada@example.com", phoneNumber: "+447911123456" },
          order: { merchantOrderId: cart.id, lineItems: [{ merchantProductId: TEE_SKU, quantity: 1 }] },
        })

        // As a storefront prices options one by one: 11 parallel /calculate calls.
        const optionIds = [seed.options.nextDay, ...Object.values(seed.options.collection)]
        const calculated = await Promise.all(
          optionIds.map((id) => shop.post(`/store/shipping-options/${id}/calculate`, { cart_id: cart.id }))
        )
        expect(calculated.map((r) => r.status)).toEqual(optionIds.map(() => 200))
        const amounts = calculated.map((r) => (r.data.shipping_option as { amount: number }).amount)
        expect(amounts).toEqual([4.95, ...Array(10).fill(0)])
        const camden = calculated[1 + Object.keys(seed.options.collection).indexOf("store-camden")]
        expect(camden.data.shipping_option).toMatchObject({
          calculated_price: { lastmile: { merchant_location_id: "store-camden", available: true } },
        })
        expect(simulator.requests("quote")).toHaveLength(1)

        const lineId = cart.items[0].id
        expect((await shop.post(`/store/carts/${cart.id}/line-items/${lineId}`, { quantity: 2 })).status).toBe(200)
        await Promise.all(
          optionIds.map((id) => shop.post(`/store/shipping-options/${id}/calculate`, { cart_id: cart.id }))
        )
        await rates(cart.id)
        expect(simulator.requests("quote")).toHaveLength(2)
        expect(simulator.requests("quote")[1].body).toMatchObject({
          order: { lineItems: [{ merchantProductId: TEE_SKU, quantity: 2 }] },
        })

        const moved = { ...londonShopper, address_1: "221B Baker Street", postal_code: "NW1 6XE" }
        expect((await shop.post(`/store/carts/${cart.id}`, { shipping_address: moved })).status).toBe(200)
        await rates(cart.id)
        await Promise.all(
          optionIds.map((id) => shop.post(`/store/shipping-options/${id}/calculate`, { cart_id: cart.id }))
        )
        expect(simulator.requests("quote")).toHaveLength(3)
      })

      it("leave out a store without stock for one line, and a store with collection disabled", async () => {
        simulator.location("store-camden").stock[MUG_SKU] = 0
        simulator.location("store-brixton").collectionEnabled = false
        const cart = await gbpCart({}, [
          { sku: "tee", quantity: 1 },
          { sku: "mug", quantity: 1 },
        ])
        const body = await rates(cart.id)

        expect(store(body, "store-camden")).toMatchObject({
          available: false,
          amount: null,
          unavailable_reason: "This store cannot offer collection for this cart.",
        })
        expect(store(body, "store-brixton").available).toBe(false)
        expect(store(body, "store-shoreditch").available).toBe(true)
        expect(rateOf(body, seed.options.nextDay).available).toBe(true)
      })

      it("show the service's reason on a rate with an error, with PARTIAL eligibility", async () => {
        simulator.configure({ collection: { unavailable: "error" } })
        simulator.location("store-camden").stock[TEE_SKU] = 0
        const body = await rates((await gbpCart()).id)

        expect(body.eligibility).toBe("PARTIAL")
        expect(store(body, "store-camden")).toMatchObject({ available: false, amount: null })
        expect(store(body, "store-camden").unavailable_reason).toContain("does not have every item in stock")
        expect(store(body, "store-islington").available).toBe(true)
      })

      it("describe a store past its cutoff with its next opening", async () => {
        simulator.location("store-camden").collectionCutoffMinutes = 24 * 60 - 1
        // At London noon, whenever the suite runs: near midnight every store would be past its cutoff.
        const shift = msToLondonNoon(simulator.now())
        simulator.advanceClock(shift)
        const body = await rates((await gbpCart()).id).finally(() => simulator.advanceClock(-shift))

        expect(store(body, "store-camden").available).toBe(true)
        expect(store(body, "store-camden").description).toMatch(
          /cutoff has passed: ready for collection tomorrow \(.+\) from 00:00/
        )
        expect(store(body, "store-shoreditch").description).toContain("Ready for collection today")
      })

      it("offer stores but not delivery where delivery does not reach (PARTIAL)", async () => {
        const cart = await gbpCart({ address_1: "1 Harbour Street", city: "Kirkwall", postal_code: "KW15 1AA" })
        const body = await rates(cart.id)

        expect(body.eligibility).toBe("PARTIAL")
        expect(rateOf(body, seed.options.nextDay)).toMatchObject({ available: false, amount: null })
        expect(rateOf(body, seed.options.nextDay).unavailable_reason).toContain("does not reach KW15 1AA")
        expect(store(body, "store-camden").available).toBe(true)
      })

      it("offer no lastmile option for an address the service cannot serve, leaving other providers alone", async () => {
        const cart = await gbpCart({ address_1: "1 Commercial Street", city: "Lerwick", postal_code: "ZE1 0AA" })
        const body = await rates(cart.id)

        expect(body.rates.every((r) => !r.available)).toBe(true)
        expect(rateOf(body, seed.options.nextDay).unavailable_reason).toBe(
          "This service does not deliver to this address."
        )
        // A store is told in a collection's words, never a delivery's.
        expect(store(body, "store-camden").unavailable_reason).toBe("Collection is not offered for this address.")
        const listed = await shop.get<{ shipping_options: { id: string; amount?: number }[] }>(
          `/store/shipping-options?cart_id=${cart.id}`
        )
        expect(listed.data.shipping_options.find((o) => o.id === seed.options.manual)?.amount).toBe(3.5)
        const chosen = await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: seed.options.manual })
        expect(chosen.status).toBe(200)
      })

      it("price in the cart's currency by its exponent: JPY 0, KWD 3", async () => {
        simulator.configure({ currency: "JPY" })
        const yen = await shop.createCart({
          region_id: seed.regions.jpy,
          email: "ada@example.com",
          shipping_address: {
            ...londonShopper,
            phone: "03-1234-5678",
            city: "Tokyo",
            postal_code: "100-0001",
            country_code: "jp",
          },
          items: [{ variant_id: seed.variants.tee, quantity: 1 }],
        })
        expect(rateOf(await rates(yen.id), seed.options.nextDay)).toMatchObject({ amount: 495, currency_code: "jpy" })

        simulator.configure({ currency: "KWD" })
        const dinar = await shop.createCart({
          region_id: seed.regions.kwd,
          email: "ada@example.com",
          shipping_address: {
            ...londonShopper,
            phone: "50012345",
            city: "Kuwait City",
            postal_code: "13001",
            country_code: "kw",
          },
          items: [{ variant_id: seed.variants.tee, quantity: 1 }],
        })
        expect(rateOf(await rates(dinar.id), seed.options.nextDay)).toMatchObject({
          amount: 0.495,
          currency_code: "kwd",
        })
      })

      it("quote a new cart state once, answer it again unchanged, and anew after any edit to the cart or an option", async () => {
        const cart = await gbpCart({}, [
          { sku: "tee", quantity: 1 },
          { sku: "mug", quantity: 2 },
        ])
        // The route asks for the quote while Medusa's workflow reads the options: still one quote for the state.
        const first = await rates(cart.id)
        expect(simulator.requests("quote")).toHaveLength(1)
        const quotedAt = Date.parse(rateOf(first, seed.options.nextDay).quoted_at ?? "")
        expect(Date.now() - quotedAt).toBeGreaterThanOrEqual(0)
        expect(Date.now() - quotedAt).toBeLessThan(60_000)
        expect(await rates(cart.id)).toEqual(first)
        expect(simulator.requests("quote")).toHaveLength(1)

        // The shopper edits the phone: a new state, a new answer (the quote carries the phone).
        const updated = await shop.post(`/store/carts/${cart.id}`, {
          shipping_address: { ...londonShopper, phone: "07400 123456" },
        })
        expect(updated.status).toBe(200)
        const second = await rates(cart.id)
        expect(rateOf(second, seed.options.nextDay).available).toBe(true)
        expect(simulator.requests("quote")).toHaveLength(2)
        expect(simulator.requests("quote")[1].body).toMatchObject({ customer: { phoneNumber: "+447400123456" } })

        // The merchant renames an option: seen at once, from the same quote.
        const fulfillment = getContainer().resolve(Modules.FULFILLMENT)
        const original = rateOf(first, seed.options.nextDay).name
        await fulfillment.updateShippingOptions(seed.options.nextDay, { name: "Next day, by lastmile" })
        try {
          expect(rateOf(await rates(cart.id), seed.options.nextDay).name).toBe("Next day, by lastmile")
          expect(simulator.requests("quote")).toHaveLength(2)
        } finally {
          await fulfillment.updateShippingOptions(seed.options.nextDay, { name: original })
        }
      })

      it("show an edit made in the dashboard at once: an option renamed, a store leaving the cart's sales channel and coming back", async () => {
        const cart = await gbpCart()
        const first = await rates(cart.id)
        expect(first.rates).toHaveLength(11)
        const admin = await adminFor(api, getContainer())
        const original = rateOf(first, seed.options.nextDay).name
        const rename = (name: string) =>
          // As the dashboard's edit sends it: no data, so Medusa asks the provider whether it still prices the option.
          admin.post(`/admin/shipping-options/${seed.options.nextDay}`, { name, price_type: "calculated" })
        expect((await rename("Next day, by courier")).status).toBe(200)
        try {
          expect(rateOf(await rates(cart.id), seed.options.nextDay).name).toBe("Next day, by courier")
          // Settings → Locations → Sales channels: Camden leaves the cart's channel, then comes back.
          const camden = seed.storeLocations["store-camden"]
          const channels = (change: "add" | "remove") =>
            admin.post(`/admin/stock-locations/${camden}/sales-channels`, { [change]: [seed.salesChannelId] })
          expect((await channels("remove")).status).toBe(200)
          const without = await rates(cart.id)
          expect(without.rates).toHaveLength(10)
          expect(without.rates.map((r) => r.shipping_option_id)).not.toContain(seed.options.collection["store-camden"])
          expect((await channels("add")).status).toBe(200)
          expect(store(await rates(cart.id), "store-camden").available).toBe(true)
          // The cart never changed: its one quote served every answer.
          expect(simulator.requests("quote")).toHaveLength(1)
        } finally {
          await rename(original)
        }
      })

      it("answer 400 without a cart id, 404 for an unknown cart, and 400 for a completed cart without asking the service", async () => {
        expect((await shop.get("/store/lastmile/rates")).status).toBe(400)
        expect((await shop.get("/store/lastmile/rates?cart_id=cart_missing")).status).toBe(404)

        const cart = await gbpCart()
        expect(
          (await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: seed.options.nextDay })).status
        ).toBe(200)
        const placed = await complete(cart.id)
        expect(placed.data.type).toBe("order")
        // Its booking quotes once more; that done, nothing else may.
        await waitForTask(getContainer(), placed.data.order!.id)
        simulator.clearRequests()
        const completed = await shop.get<{ message: string }>(`/store/lastmile/rates?cart_id=${cart.id}`)
        expect(completed.status).toBe(400)
        expect(completed.data.message).toBe(
          `Cart ${cart.id} is already completed: it has no shipping rates to choose from.`
        )
        // Nor does pricing one of its options, or listing them, cost a quote.
        await shop.post(`/store/shipping-options/${seed.options.nextDay}/calculate`, { cart_id: cart.id })
        await shop.get(`/store/shipping-options?cart_id=${cart.id}`)
        expect(simulator.requests("quote")).toHaveLength(0)
      })
    })

    describe("when the service is down or slow", () => {
      it("keeps cart updates working and the chosen method at its price while the cart is unchanged; the listing falls back, stores become unavailable", async () => {
        const cart = await gbpCart()
        const chosen = await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: seed.options.nextDay })
        expect(chosen.status).toBe(200)

        simulator.addFault({ operation: "quote", kind: "status", status: 503 })
        // A change that is not the address or the basket (Medusa prices the method again): the chosen price stands.
        const updated = await shop.post<{ cart: { shipping_methods: { amount: number }[] } }>(
          `/store/carts/${cart.id}`,
          { email: "ada.lovelace@example.com" }
        )
        expect(updated.status).toBe(200)
        expect(updated.data.cart.shipping_methods.map((m) => m.amount)).toEqual([4.95])

        const body = await rates(cart.id)
        // One price per choice: the chosen option shows the price the cart is charged, marked kept, not the estimate.
        expect(rateOf(body, seed.options.nextDay)).toMatchObject({
          available: true,
          amount: 4.95,
          fallback: false,
          kept: true,
        })
        expect(store(body, "store-camden")).toMatchObject({
          available: false,
          unavailable_reason: COLLECTION_OUTAGE_REASON,
        })

        // Add to cart still works. The basket is no longer what was quoted, and the method names its rate, which
        // cannot be priced for the new basket: the method goes rather than stay under the rate's name at the estimate.
        const added = await shop.post<{ cart: { items: unknown[]; shipping_methods: { amount: number }[] } }>(
          `/store/carts/${cart.id}/line-items`,
          { variant_id: seed.variants.mug, quantity: 1 }
        )
        expect(added.status).toBe(200)
        expect(added.data.cart.items).toHaveLength(2)
        expect(added.data.cart.shipping_methods).toEqual([])
        const after = await rates(cart.id)
        expect(rateOf(after, seed.options.nextDay)).toMatchObject({ amount: 5.95, fallback: true, rate_name: null })
        expect(after.lost_choice).toMatchObject({ name: "Next day delivery", amount: 4.95 })
      })

      it("never charges a kept price to a cart whose address or basket changed, and will not complete it with one", async () => {
        simulator.configure({ collection: { price: 250 } })
        try {
          const camden = seed.options.collection["store-camden"]
          const lerwick = { address_1: "1 Commercial Street", city: "Lerwick", postal_code: "ZE1 0AA" }
          const choose = async (optionId: string, items?: { sku: string; quantity: number }[]) => {
            const cart = await gbpCart({}, items)
            const chosen = await shop.post<{ cart: { shipping_methods: { amount: number }[] } }>(
              `/store/carts/${cart.id}/shipping-methods`,
              { option_id: optionId }
            )
            expect(chosen.data.cart.shipping_methods.map((m) => m.amount)).toEqual([optionId === camden ? 2.5 : 4.95])
            return cart.id
          }
          const atCamden = await choose(camden)
          const delivered = await choose(seed.options.nextDay)
          simulator.location("store-camden").stock[MUG_SKU] = 0
          const grown = await choose(camden)

          simulator.addFault({ operation: "quote", kind: "status", status: 503 })
          type Methods = { cart: { shipping_methods: { amount: number }[] } }
          const moveTo = (cartId: string) =>
            shop.post<Methods>(`/store/carts/${cartId}`, { shipping_address: { ...londonShopper, ...lerwick } })

          // The address changed: the store cannot be priced without the service, so Medusa drops the method...
          const moved = await moveTo(atCamden)
          expect(moved.status).toBe(200)
          expect(moved.data.cart.shipping_methods).toEqual([])
          expect(store(await rates(atCamden), "store-camden")).toMatchObject({
            available: false,
            amount: null,
            unavailable_reason: COLLECTION_OUTAGE_REASON,
          })
          // ...and the cart cannot complete without one.
          const refused = await complete(atCamden)
          expect(refused.status).toBe(400)
          expect(refused.data.message).toBe(
            "No shipping method selected but the cart contains items that require shipping."
          )

          // Delivery to the new address cannot be priced as the rate chosen: the method goes, and the option is
          // offered as for a new cart in an outage, at the merchant's estimate, never 4.95.
          const movedDelivery = await moveTo(delivered)
          expect(movedDelivery.data.cart.shipping_methods).toEqual([])
          expect(rateOf(await rates(delivered), seed.options.nextDay)).toMatchObject({
            amount: 5.95,
            fallback: true,
            kept: false,
          })

          // The basket changed, with an item the store no longer stocks: no kept price, no method, no order.
          const added = await shop.post<Methods>(`/store/carts/${grown}/line-items`, {
            variant_id: seed.variants.mug,
            quantity: 1,
          })
          expect(added.status).toBe(200)
          expect(added.data.cart.shipping_methods).toEqual([])
          expect((await complete(grown)).status).toBe(400)
          expect(simulator.requests("bookDelivery")).toHaveLength(0)
        } finally {
          simulator.configure({ collection: { price: 0 } })
        }
      })

      it("after an address change in an outage, holds no method named after the old rate at another price; charged, booked and shown agree", async () => {
        const [standard] = defaultConfig().deliveryServices
        const eco = { ...standard, rateCode: "ND-ECO", name: "Next day eco", price: 395, windowFrom: "12:00" }
        simulator.configure({ deliveryServices: [standard, eco] })
        try {
          const cart = await gbpCart()
          const offered = rateOf(await rates(cart.id), seed.options.nextDay).rates
          expect(offered.map((r) => [r.name, r.amount])).toEqual([
            ["Next day eco", 3.95],
            ["Next day delivery", 4.95],
          ])
          type Methods = {
            cart: { shipping_methods: { amount: number; name: string; data: Record<string, unknown> }[] }
          }
          const chosen = await shop.post<Methods>(`/store/carts/${cart.id}/shipping-methods`, {
            option_id: seed.options.nextDay,
            data: { rate_code: "ND-ECO" },
          })
          expect(chosen.data.cart.shipping_methods.map((m) => m.amount)).toEqual([3.95])

          // The service goes down, and the shopper moves the delivery a street away.
          simulator.addFault({ operation: "quote", kind: "status", status: 503 })
          const moved = await shop.post<Methods>(`/store/carts/${cart.id}?fields=+shipping_methods.data`, {
            shipping_address: { ...londonShopper, address_1: "1 Horse Guards Road", postal_code: "SW1A 2HQ" },
          })
          expect(moved.status).toBe(200)
          // No method named "Next day eco" at the £5.95 estimate, nor at the kept £3.95: no method at all.
          expect(moved.data.cart.shipping_methods).toEqual([])
          const after = await rates(cart.id)
          expect(rateOf(after, seed.options.nextDay)).toMatchObject({
            available: true,
            amount: 5.95,
            fallback: true,
            kept: false,
            rate_name: null,
            window: null,
          })
          // The shopper is told what went and why, and chooses again.
          expect(after.lost_choice).toEqual({
            shipping_option_id: seed.options.nextDay,
            kind: "delivery",
            name: "Next day eco",
            rate_code: "ND-ECO",
            amount: 3.95,
            reason:
              "Your choice, Next day eco at £3.95, could not be kept when your cart changed. Live delivery prices are unavailable right now. Please choose again: the price shown is the shop's estimate.",
          })
          expect((await complete(cart.id)).status).toBe(400)

          // Chosen again, at the estimate: a method that names no rate, no window, no code.
          const again = await shop.post<Methods>(
            `/store/carts/${cart.id}/shipping-methods?fields=+shipping_methods.data`,
            {
              option_id: seed.options.nextDay,
            }
          )
          expect(again.status).toBe(200)
          expect(again.data.cart.shipping_methods).toHaveLength(1)
          const [estimate] = again.data.cart.shipping_methods
          expect(estimate.amount).toBe(5.95)
          expect(estimate.data).toMatchObject({ fallback: true, rateCode: null, rateName: null, window: null })
          expect((await rates(cart.id)).lost_choice).toBeNull()

          // Back up; the order is placed at the estimate it was chosen at.
          simulator.clearFaults()
          const placed = await complete(cart.id)
          expect(placed.status).toBe(200)
          const orderId = placed.data.order!.id
          const task = await waitForTask(getContainer(), orderId)
          // Booked by the option's rule (the cheapest, as the option's price says), not by a name the shopper lost.
          expect(task).toMatchObject({ status: "booked", rate_code: "ND-ECO" })
          const [booked] = simulator.requests("bookDelivery")
          expect(booked.body).toMatchObject({ rateCode: "ND-ECO" })

          // Shown: the order names no rate at the estimate; the admin sees the estimate charged and the rate booked.
          const order = await shop.get<{
            order: { shipping_methods: { amount: number; name: string; data: Record<string, unknown> }[] }
          }>(`/store/orders/${orderId}?fields=+shipping_methods.data,+shipping_methods.name`)
          expect(order.data.order.shipping_methods).toEqual([
            expect.objectContaining({
              amount: 5.95,
              name: "Next day delivery",
              data: expect.objectContaining({ fallback: true, rateName: null }),
            }),
          ])
          const admin = await adminFor(api, getContainer())
          const view = await admin.get<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${orderId}`)
          expect(view.data.tasks).toEqual([
            expect.objectContaining({
              charged: { amount: 5.95, currency_code: "gbp", rate_name: null, estimate: true },
              booked_rate: { rate_code: "ND-ECO", name: "Next day eco", amount: 3.95, currency_code: "gbp" },
            }),
          ])
        } finally {
          simulator.configure({ deliveryServices: defaultConfig().deliveryServices })
        }
      })

      it("removes a chosen rate the live quote no longer offers when the cart changes, rather than charge another rate under its name", async () => {
        const [standard] = defaultConfig().deliveryServices
        const eco = { ...standard, rateCode: "ND-ECO", name: "Next day eco", price: 395 }
        simulator.configure({ deliveryServices: [standard, eco] })
        try {
          const cart = await gbpCart()
          const chosen = await shop.post<{ cart: { shipping_methods: { amount: number }[] } }>(
            `/store/carts/${cart.id}/shipping-methods`,
            { option_id: seed.options.nextDay }
          )
          // The option's rule picked the cheapest: "Next day eco", named on the method.
          expect(chosen.data.cart.shipping_methods.map((m) => m.amount)).toEqual([3.95])
          simulator.configure({ deliveryServices: [standard] })
          const updated = await shop.post<{ cart: { shipping_methods: unknown[] } }>(`/store/carts/${cart.id}`, {
            shipping_address: { ...londonShopper, postal_code: "SW1A 2HQ" },
          })
          expect(updated.data.cart.shipping_methods).toEqual([])
          const after = await rates(cart.id)
          expect(after.lost_choice).toMatchObject({ name: "Next day eco", amount: 3.95 })
          expect(after.lost_choice!.reason).toContain("Please choose again from what your cart is offered now.")
          expect(rateOf(after, seed.options.nextDay)).toMatchObject({ amount: 4.95, rate_name: "Next day delivery" })
        } finally {
          simulator.configure({ deliveryServices: defaultConfig().deliveryServices })
        }
      })

      it("offers the fallback amount after a 429 but not after a refusal (a wrong key)", async () => {
        const cart = await gbpCart()
        simulator.addFault({ operation: "quote", kind: "status", status: 401 })
        const refused = await rates(cart.id)
        expect(rateOf(refused, seed.options.nextDay)).toMatchObject({
          available: false,
          amount: null,
          fallback: false,
          unavailable_reason: "This option is unavailable right now. Please choose another option.",
        })
        expect(simulator.requests("quote")).toHaveLength(1)

        simulator.clearFaults()
        const other = await gbpCart({ postal_code: "SW1A 1AA" })
        simulator.addFault({ operation: "quote", kind: "status", status: 429 })
        expect(rateOf(await rates(other.id), seed.options.nextDay)).toMatchObject({
          available: true,
          amount: 5.95,
          fallback: true,
        })
      })

      it("makes every option unavailable where no fallback is configured (JPY)", async () => {
        simulator.addFault({ operation: "quote", kind: "status", status: 503 })
        const yen = await shop.createCart({
          region_id: seed.regions.jpy,
          email: "ada@example.com",
          shipping_address: { ...londonShopper, phone: "03-1234-5678", country_code: "jp" },
          items: [{ variant_id: seed.variants.tee, quantity: 1 }],
        })
        const body = await rates(yen.id)
        expect(body.rates.every((r) => !r.available && r.amount === null)).toBe(true)
      })

      it("keeps cart updates working when the quote times out, and the chosen store at its price", async () => {
        const cart = await gbpCart()
        const camden = seed.options.collection["store-camden"]
        expect((await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: camden })).status).toBe(200)

        simulator.addFault({ operation: "quote", kind: "timeout" })
        const started = Date.now()
        const updated = await shop.post<{
          cart: { email: string; shipping_methods: { shipping_option_id: string; amount: number }[] }
        }>(`/store/carts/${cart.id}`, { email: "ada.lovelace@example.com" })
        expect(updated.status).toBe(200)
        expect(updated.data.cart.email).toBe("ada.lovelace@example.com")
        expect(updated.data.cart.shipping_methods).toMatchObject([{ shipping_option_id: camden, amount: 0 }])
        expect(Date.now() - started).toBeLessThan(8000)
      })
    })

    describe("choosing an option", () => {
      const methodData = async (cartId: string) => {
        const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
        const { data } = await query.graph({
          entity: "cart",
          fields: ["shipping_methods.data", "shipping_methods.amount", "shipping_methods.shipping_option_id"],
          filters: { id: cartId },
        })
        return data[0].shipping_methods as { data: Record<string, unknown>; amount: number }[]
      }

      it("answers a clear 400 when the phone is missing", async () => {
        const cart = await gbpCart({ phone: null })
        const response = await shop.post<{ message: string }>(`/store/carts/${cart.id}/shipping-methods`, {
          option_id: seed.options.nextDay,
        })
        expect(response.status).toBe(400)
        expect(response.data.message).toBe("Enter a phone number so the courier can reach you.")
        // The rates route names the field, so a storefront sends the shopper to the phone, not the whole form.
        const rates = await shop.get<LastmileRatesResponse>(`/store/lastmile/rates?cart_id=${cart.id}`)
        const lastmile = rates.data.rates.filter((r) => !r.available)
        expect(lastmile.length).toBe(rates.data.rates.length)
        expect(new Set(lastmile.map((r) => JSON.stringify([r.unavailable_code, r.unavailable_fields])))).toEqual(
          new Set([JSON.stringify(["input_incomplete", ["shipping_address.phone"]])])
        )
      })

      it("stores what booking needs for next-day delivery", async () => {
        const cart = await gbpCart()
        const response = await shop.post(`/store/carts/${cart.id}/shipping-methods`, {
          option_id: seed.options.nextDay,
        })
        expect(response.status).toBe(200)
        const [method] = await methodData(cart.id)
        expect(method.amount).toBe(4.95)
        // Public (the store API shows it to anyone holding the order id): what the shopper chose, nothing private.
        expect(method.data).toMatchObject({
          provider: "lastmile",
          kind: "delivery",
          rateCode: "NEXT_DAY",
          rateName: "Next day delivery",
          quotedAt: expect.any(String),
        })
        expect(Object.keys(method.data)).not.toEqual(
          expect.arrayContaining([expect.stringMatching(/phone|stockLocationId|optionId|quotedAmount/)])
        )
        expect(JSON.stringify(method.data)).not.toContain("+447911123456")
      })

      it("stores the store's external id and location for a collection", async () => {
        const cart = await gbpCart()
        const option = seed.options.collection["store-camden"]
        const response = await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: option })
        expect(response.status).toBe(200)
        const [method] = await methodData(cart.id)
        expect(method.data).toMatchObject({
          kind: "collection",
          rateCode: "SVC_COL",
          store: { name: "Camden store", address: { address_1: "201 Camden High Street" } },
        })
        expect(String(method.data.description)).toContain("Camden")
      })
    })
  },
})

/** How far a clock must move to read 12:00 in London on the same day. */
function msToLondonNoon(now: number): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/London",
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  }).formatToParts(now)
  const field = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return (12 * 60 - (field("hour") * 60 + field("minute"))) * 60_000
}
