/**
 * The service as it may really answer: the simulator's strict profile sends the least convenient shapes the spec allows
 * (docs/simulator.md); two delivery types are configured.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import {
  createInventoryLevelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
} from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { createProducts } from "../../scripts/catalog"
import type { LastmileOptionRate } from "../../src/lib/checkout/option-rate"
import { type SeededStore, TEE_SKU } from "../helpers/seed-store"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { waitForTask } from "../helpers/orders"
import { adminFor } from "../helpers/admin"
import { useSimulator } from "../helpers/simulator"
import { Storefront, londonShopper, placeOrder } from "../helpers/storefront"

jest.setTimeout(120_000)

const POSTER_SKU = "DEMO-POSTER"

const { simulator } = useSimulator(
  { profile: "strict", locations: londonTestLocations() },
  { LASTMILE_DELIVERY_TYPES: "NEXT_DAY,SAME_DAY", LASTMILE_QUOTE_BUDGET_MS: "1000" }
)

interface RatesBody {
  eligibility: string | null
  rates: LastmileOptionRate[]
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront
    let sameDay: string
    let posterVariant: string
    let posterPost: string

    const london = useLondonStore(simulator, { api, getContainer })

    // A same-day option beside next-day, and a poster in a profile of its own shipped by post.
    beforeAll(async () => {
      ;({ seed, shop } = london)
      const container = getContainer()
      const query = container.resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "shipping_option",
        fields: ["id", "service_zone_id", "shipping_profile_id", "rules.*"],
        filters: { id: seed.options.nextDay },
      })
      const nextDay = data[0] as { service_zone_id: string; shipping_profile_id: string }
      const {
        result: [posters],
      } = await createShippingProfilesWorkflow(container).run({
        input: { data: [{ name: "Posters", type: "posters" }] },
      })
      const enabled = [
        { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
        { attribute: "is_return", value: "false", operator: "eq" as const },
      ]
      const { result: options } = await createShippingOptionsWorkflow(container).run({
        input: [
          {
            name: "Same day delivery",
            price_type: "calculated",
            provider_id: "lastmile_lastmile",
            service_zone_id: nextDay.service_zone_id,
            shipping_profile_id: nextDay.shipping_profile_id,
            type: { label: "Same day", description: "Delivered today", code: "lastmile-same-day" },
            data: { id: "lastmile-same-day", kind: "delivery", delivery_type: "SAME_DAY" },
            rules: enabled,
          },
          {
            name: "Poster tube by post",
            price_type: "flat",
            provider_id: "manual_manual",
            service_zone_id: nextDay.service_zone_id,
            shipping_profile_id: posters.id,
            type: { label: "Post", description: "2-4 days", code: "poster-post" },
            data: { id: "manual-fulfillment" },
            prices: [{ currency_code: "gbp", amount: 2 }],
            rules: enabled,
          },
        ],
      })
      sameDay = options[0].id
      posterPost = options[1].id
      const [poster] = await createProducts(container, {
        profileId: posters.id,
        salesChannelId: seed.salesChannelId,
        products: [{ title: "Demo poster", sku: POSTER_SKU, prices: { gbp: 12 } }],
      })
      posterVariant = poster.variants![0].id
      const { data: items } = await query.graph({
        entity: "inventory_item",
        fields: ["id"],
        filters: { sku: POSTER_SKU },
      })
      await createInventoryLevelsWorkflow(container).run({
        input: {
          inventory_levels: [{ location_id: seed.warehouseId, inventory_item_id: items[0].id, stocked_quantity: 100 }],
        },
      })
    })

    const teeCart = () =>
      shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
    const rates = async (cartId: string): Promise<RatesBody> => {
      const response = await shop.get<RatesBody>(`/store/lastmile/rates?cart_id=${cartId}`)
      expect(response.status).toBe(200)
      return response.data
    }
    const rateOf = (body: RatesBody, optionId: string) => body.rates.find((r) => r.shipping_option_id === optionId)!
    const methods = async (cartId: string) => {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "cart",
        fields: ["shipping_methods.data", "shipping_methods.amount"],
        filters: { id: cartId },
      })
      return data[0].shipping_methods as { data: Record<string, unknown>; amount: number }[]
    }
    const quotesFor = (cartId: string) =>
      simulator
        .requests("quote")
        .filter((r) => (r.body as { order?: { merchantOrderId?: string } }).order?.merchantOrderId === cartId)
    const bookings = (orderId: string) =>
      simulator
        .requests("bookDelivery")
        .filter((r) => (r.body as { order?: { merchantOrderId?: string } }).order?.merchantOrderId === orderId)

    it("offers every delivery rate of each type, priced by the cheapest, an errored rate's reason in words", async () => {
      const cart = await teeCart()
      const body = await rates(cart.id)

      const nextDay = rateOf(body, seed.options.nextDay)
      expect(nextDay).toMatchObject({ type: "delivery", available: true, amount: 3.95 })
      expect(nextDay.rates.map((r) => [r.name, r.amount, r.available])).toEqual([
        ["Next day eco", 3.95, true],
        ["Next day", 4.95, true],
        ["Next day morning", null, false],
      ])
      expect(nextDay.rates[0]).toMatchObject({ co2_savings: 1.1, description: null })
      expect(nextDay.rates[0].window?.from).toMatch(/^\d{4}-\d\d-\d\dT/)
      expect(nextDay.rates[2].unavailable_reason).toBe("Vehicle full.")

      const sameDayRate = rateOf(body, sameDay)
      expect(sameDayRate).toMatchObject({ type: "delivery", available: true, amount: 8.95 })
      expect(sameDayRate.rates.map((r) => r.name)).toEqual(["Same day evening"])

      // Collection: a bare-number price, null optional fields, the store named only by its address.
      const camden = rateOf(body, seed.options.collection["store-camden"])
      expect(camden).toMatchObject({ type: "collection", available: true, amount: 0, co2_savings: null })
      expect(camden.description).toContain("201 Camden High Street")
      expect(body.rates.filter((r) => r.type === "collection" && r.available)).toHaveLength(10)

      // One quote per cart state per delivery type, however often the options are priced.
      const optionIds = [seed.options.nextDay, sameDay, ...Object.values(seed.options.collection)]
      await Promise.all(
        optionIds.map((id) => shop.post(`/store/shipping-options/${id}/calculate`, { cart_id: cart.id }))
      )
      await rates(cart.id)
      expect(
        quotesFor(cart.id)
          .map((q) => (q.body as { deliveryType: string }).deliveryType)
          .sort()
      ).toEqual(["NEXT_DAY", "SAME_DAY"])
    })

    it("offers a store the merchant enables or adds at the service while the app runs, at the next cart change, and books it", async () => {
      const camden = londonTestLocations().find((l) => l.externalLocationId === "store-camden")!
      const camdenOption = seed.options.collection["store-camden"]
      const cart = await teeCart()
      expect(rateOf(await rates(cart.id), camdenOption)).toMatchObject({ available: true })
      let edits = 0
      const changeCart = async () =>
        expect((await shop.post(`/store/carts/${cart.id}`, { email: `ada+${++edits}@example.com` })).status).toBe(200)

      // Switched off at the service, then on again: the next cart change shows each.
      simulator.updateLocation("store-camden", { collectionEnabled: false })
      await changeCart()
      expect(rateOf(await rates(cart.id), camdenOption)).toMatchObject({ available: false })
      simulator.updateLocation("store-camden", { collectionEnabled: true })
      await changeCart()
      expect(rateOf(await rates(cart.id), camdenOption)).toMatchObject({ available: true })

      // Camden leaves the service; the admin's overview reads the list and hands it to the app, which holds it.
      simulator.removeLocation("store-camden")
      const admin = await adminFor(api, getContainer())
      simulator.clearRequests()
      expect((await admin.get("/admin/lastmile")).status).toBe(200)
      const pagesPerRead = simulator.requests("listLocations").length
      expect(pagesPerRead).toBeGreaterThan(0)
      await changeCart()
      expect(rateOf(await rates(cart.id), camdenOption)).toMatchObject({ available: false })
      // One read served both: the app did not read the list again for itself.
      expect(simulator.requests("listLocations")).toHaveLength(pagesPerRead)

      // Added at the service: its rate names no store and the list held does not know it.
      simulator.addLocation(camden)
      await changeCart()
      const offered = rateOf(await rates(cart.id), camdenOption)
      expect(offered).toMatchObject({ type: "collection", available: true, amount: 0 })
      expect(offered.description).toContain("201 Camden High Street")

      // And bookable: the shopper picks it and the order is booked for collection there.
      expect((await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: camdenOption })).status).toBe(
        200
      )
      const order = await placeOrder(shop, cart.id)
      expect(await waitForTask(getContainer(), order.id)).toMatchObject({ status: "booked" })
      expect(bookings(order.id)[0].body).toMatchObject({ collection: { address: { line1: "201 Camden High Street" } } })
    })

    it("books the rate the shopper chose, found again by its name when the service mints new codes", async () => {
      const cart = await teeCart()
      const listed = rateOf(await rates(cart.id), seed.options.nextDay).rates
      const standard = listed.find((r) => r.name === "Next day")!

      const refused = await shop.post<{ message: string }>(`/store/carts/${cart.id}/shipping-methods`, {
        option_id: seed.options.nextDay,
        data: { rate_code: "NOT-A-RATE" },
      })
      expect(refused.status).toBe(400)
      expect(refused.data.message).toContain('The delivery rate "NOT-A-RATE" is not offered for this cart')
      expect(refused.data.message).toContain(`${standard.rate_code} (Next day, £4.95)`)

      const chosen = await shop.post(`/store/carts/${cart.id}/shipping-methods`, {
        option_id: seed.options.nextDay,
        data: { rate_code: standard.rate_code },
      })
      expect(chosen.status).toBe(200)
      const [method] = await methods(cart.id)
      expect(method.amount).toBe(4.95)
      expect(method.data).toMatchObject({ rateCode: standard.rate_code, rateName: "Next day", rateChosen: true })

      // A cart change re-quotes (new codes): the chosen rate keeps pricing the method, not the cheapest.
      const updated = await shop.post<{ cart: { shipping_methods: { amount: number }[] } }>(`/store/carts/${cart.id}`, {
        email: "ada.lovelace@example.com",
      })
      expect(updated.status).toBe(200)
      expect(updated.data.cart.shipping_methods.map((m) => m.amount)).toEqual([4.95])

      const order = await placeOrder(shop, cart.id)
      const task = await waitForTask(getContainer(), order.id)
      // The booking answer had no tracking URL: the booking is still recorded from it, not adopted by lookup.
      expect(task).toMatchObject({ status: "booked", adopted: false, attempts: 1, tracking_url: null })
      expect(task.tracking_id).toMatch(/^LM/)
      expect(simulator.requests("lookupDelivery")).toHaveLength(0)
      const [booking] = bookings(order.id)
      const booked = (booking.body as { rateCode: string }).rateCode
      expect(booked).toMatch(/^ND-STD/)
      expect(booked).not.toBe(standard.rate_code)
      expect(simulator.tasks().find((t) => t.merchantOrderId === order.id)?.rateCode).toBe(booked)
    })

    it("books the basket checkout quoted: the items of the option's shipping profile only", async () => {
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: londonShopper,
        items: [
          { variant_id: seed.variants.tee, quantity: 1 },
          { variant_id: posterVariant, quantity: 2 },
        ],
      })
      for (const option of [seed.options.nextDay, posterPost]) {
        const response = await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: option })
        expect({ option, status: response.status }).toEqual({ option, status: 200 })
      }
      const order = await placeOrder(shop, cart.id)
      const task = await waitForTask(getContainer(), order.id)

      expect(task.status).toBe("booked")
      const quoted = quotesFor(cart.id).map((q) => (q.body as { order: { lineItems: unknown } }).order.lineItems)
      // Every quote of this cart (listing, choosing, validating) was of the tee alone.
      expect(quoted.length).toBeGreaterThan(0)
      expect(quoted).toEqual(quoted.map(() => [{ merchantProductId: TEE_SKU, quantity: 1 }]))
      expect((bookings(order.id)[0].body as { order: { lineItems: unknown } }).order.lineItems).toEqual([
        { merchantProductId: TEE_SKU, quantity: 1 },
      ])
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "order",
        fields: ["fulfillments.items.sku", "fulfillments.items.quantity"],
        filters: { id: order.id },
      })
      const fulfillments = (data[0].fulfillments ?? []) as { items: { sku: string; quantity: number }[] }[]
      const items = fulfillments.flatMap((f) => f.items)
      expect(items.map((i) => [i.sku, Number(i.quantity)])).toEqual([[TEE_SKU, 1]])
    })
  },
})
