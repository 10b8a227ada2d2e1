import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { type DemoStore, seedDemoStore } from "../../scripts/demo/demo-store"
import { londonTestLocations } from "../helpers/london-store"
import { createAdminHeaders } from "../helpers/admin-auth"
import { TEST_API_KEY, TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { Storefront, londonShopper, placeOrder } from "../helpers/storefront"
import { waitForTask } from "../helpers/orders"

jest.setTimeout(120_000)

const { simulator } = useSimulator({ locations: londonTestLocations() })

/** A London shopper's cart holding one of the demo store's first product. */
async function londonCart(shop: Storefront, regionId: string) {
  const { data } = await shop.get<{ products: { variants: { id: string }[] }[] }>("/store/products?fields=*variants")
  return shop.createCart({
    region_id: regionId,
    email: "ada@example.com",
    shipping_address: londonShopper,
    items: [{ variant_id: data.products[0].variants[0].id, quantity: 1 }],
  })
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let demo: DemoStore
    let admin: { headers: Record<string, string> }
    const get = (path: string) => api.get(path, { ...admin, validateStatus: () => true })
    const post = (path: string, body: unknown = {}) => api.post(path, body, { ...admin, validateStatus: () => true })

    beforeAll(async () => {
      demo = await seedDemoStore(getContainer(), londonTestLocations())
      admin = await createAdminHeaders(getContainer())
    })

    it("sets up the shipping options once: a second run creates nothing", async () => {
      expect(demo.setup.created).toEqual(
        expect.arrayContaining([
          "Park Royal warehouse: lastmile provider enabled",
          "Park Royal warehouse: shipping service zone (GB)",
          "Park Royal warehouse: Last-mile next day delivery option",
          "Camden store: pickup fulfillment set",
          "Camden store: click & collect option",
        ])
      )
      expect(demo.setup.created.filter((c) => c.endsWith("click & collect option"))).toHaveLength(10)
      const again = await post("/admin/lastmile/setup")
      expect(again.status).toBe(200)
      expect(again.data.created).toEqual([])
      expect(again.data.unchanged).toHaveLength(11)

      // The options work at checkout: delivery and every store are priced.
      const shop = new Storefront(api, demo.publishableKey)
      const cart = await londonCart(shop, demo.regionId)
      const rates = await shop.get<{ rates: { available: boolean }[] }>(`/store/lastmile/rates?cart_id=${cart.id}`)
      expect(rates.data.rates.filter((r) => r.available)).toHaveLength(11)
    })

    it("shows the connection, webhook URL, locations and checks, and never the API key", async () => {
      const response = await get("/admin/lastmile")
      expect(response.status).toBe(200)
      expect(response.data.connection).toMatchObject({ ok: true })
      expect(response.data.webhook.url).toMatch(new RegExp(`/hooks/lastmile/${TEST_WEBHOOK_SECRET}$`))
      expect(response.data.locations).toHaveLength(11)
      expect(
        response.data.locations.find((l: { external_location_id: string }) => l.external_location_id === "store-camden")
      ).toMatchObject({
        collection_enabled: true,
        has_collection_option: true,
        stock_location: { name: "Camden store" },
      })
      expect(response.data.dispatch_location).toMatchObject({ name: "Park Royal warehouse" })

      // The stock location widget's view of one store.
      const camden = response.data.locations.find(
        (l: { external_location_id: string }) => l.external_location_id === "store-camden"
      )
      const store = await get(`/admin/lastmile/stock-locations/${camden.stock_location.id}`)
      expect(store.data).toMatchObject({
        connected: true,
        is_dispatch: false,
        location: { external_location_id: "store-camden", collection_enabled: true },
      })
      expect(response.data.checks.every((c: { ok: boolean }) => c.ok)).toBe(true)
      expect(JSON.stringify(response.data)).not.toContain(TEST_API_KEY)
      expect((await api.get("/admin/lastmile", { validateStatus: () => true })).status).toBe(401)
    })

    it("switches collection off at the service and flags the store that still offers it", async () => {
      const camden = simulator.location("store-camden")
      const off = await post(`/admin/lastmile/locations/${camden.fulfilmentLocationId}/collection`, { enabled: false })
      expect(off.status).toBe(200)
      expect(simulator.location("store-camden").collectionEnabled).toBe(false)
      const overview = (await get("/admin/lastmile")).data
      expect(overview.checks.find((c: { id: string }) => c.id === "store_not_enabled")).toMatchObject({
        ok: false,
        message: expect.stringContaining("Camden store"),
      })
      const bad = await post(`/admin/lastmile/locations/${camden.fulfilmentLocationId}/collection`, { enabled: "no" })
      expect(bad.status).toBe(400)
      expect(bad.data.message).toContain("'boolean' for field 'enabled'")
      await post(`/admin/lastmile/locations/${camden.fulfilmentLocationId}/collection`, { enabled: true })
      expect(simulator.location("store-camden").collectionEnabled).toBe(true)
    })

    it("shows an order's task, retries a failed booking and refreshes its status", async () => {
      const shop = new Storefront(api, demo.publishableKey)
      const cart = await londonCart(shop, demo.regionId)
      const { data } = await shop.get<{ rates: { shipping_option_id: string; type: string }[] }>(
        `/store/lastmile/rates?cart_id=${cart.id}`
      )
      const nextDay = data.rates.find((r) => r.type === "delivery")!
      expect(
        (await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: nextDay.shipping_option_id })).status
      ).toBe(200)
      simulator.addFault({ operation: "bookDelivery", kind: "status", status: 503 })
      const order = await placeOrder(shop, cart.id)
      const failed = await waitForTask(getContainer(), order.id)
      expect(failed.status).toBe("failed")

      const shown = await get(`/admin/lastmile/orders/${order.id}`)
      expect(shown.data.tasks[0]).toMatchObject({ kind: "delivery", status: "failed", last_error: expect.any(String) })

      simulator.clearFaults()
      const retried = await post(`/admin/lastmile/orders/${order.id}/retry`)
      expect(retried.status).toBe(200)
      expect(retried.data.tasks[0]).toMatchObject({
        status: "booked",
        tracking_url: expect.stringContaining("/track/"),
      })
      expect((await post(`/admin/lastmile/orders/${order.id}/retry`)).status).toBe(400)

      simulator.configure({ webhookUrl: undefined })
      simulator.setTaskStatus(Number(retried.data.tasks[0].task_id), "IN_TRANSIT")
      const refreshed = await post(`/admin/lastmile/orders/${order.id}/refresh`)
      expect(refreshed.data.tasks[0]).toMatchObject({ service_status: "IN_TRANSIT", tracking_state: "shipped" })
    })
  },
})
