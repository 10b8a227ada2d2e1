/**
 * The provider registered under an id of the app's own (`courier`, so `lastmile_courier`): listed, priced and booked
 * under it, nothing of the plugin expecting `lastmile_lastmile` (decision 37).
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import { createAdminHeaders } from "../helpers/admin-auth"
import { londonTestLocations } from "../helpers/london-store"
import { orderWith, waitForTask } from "../helpers/orders"
import { seedFromSimulatorLocations } from "../helpers/seed-store"
import { useSimulator } from "../helpers/simulator"
import { Storefront, londonShopper } from "../helpers/storefront"

jest.setTimeout(120_000)

const PROVIDER_ID = "lastmile_courier"

const { simulator } = useSimulator({ locations: londonTestLocations() }, { LASTMILE_PROVIDER_CONFIG_ID: "courier" })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let admin: { headers: Record<string, string> }

    beforeEach(async () => {
      admin = await createAdminHeaders(getContainer())
    })

    describe("the lastmile fulfillment provider", () => {
      it("is registered and enabled under the id the app gives it, beside the manual provider", async () => {
        const response = await api.get("/admin/fulfillment-providers?limit=50", admin)

        expect(response.status).toBe(200)
        const ids = response.data.fulfillment_providers.map((p: { id: string }) => p.id)
        expect(ids).toEqual(expect.arrayContaining([PROVIDER_ID, "manual_manual"]))
        expect(ids).not.toContain("lastmile_lastmile")
        const lastmile = response.data.fulfillment_providers.find((p: { id: string }) => p.id === PROVIDER_ID)
        expect(lastmile.is_enabled).toBe(true)
      })

      it("lists next-day delivery, click & collect and return as fulfillment options", async () => {
        const response = await api.get(`/admin/fulfillment-providers/${PROVIDER_ID}/options`, admin)

        expect(response.status).toBe(200)
        expect(response.data.fulfillment_options).toEqual([
          expect.objectContaining({ id: "lastmile-next-day", kind: "delivery", delivery_type: "NEXT_DAY" }),
          expect.objectContaining({ id: "lastmile-collection", kind: "collection", rate_code: "SVC_COL" }),
          expect.objectContaining({ id: "lastmile-return", kind: "return", is_return: true }),
        ])
        // The admin form filters by is_return: exactly one option is for returns.
        const returns = response.data.fulfillment_options.filter((o: { is_return?: boolean }) => o.is_return)
        expect(returns).toHaveLength(1)
      })

      it("reaches the service for nothing at boot, nor while listing options", async () => {
        expect(simulator.requests()).toEqual([])
        await api.get(`/admin/fulfillment-providers/${PROVIDER_ID}/options`, admin)
        expect(simulator.requests()).toEqual([])
      })

      it("prices a cart and books its order under that id", async () => {
        const seed = await seedFromSimulatorLocations(getContainer(), londonTestLocations())
        const shop = new Storefront(api, seed.publishableKey)
        const cart = await shop.createCart({
          region_id: seed.regions.gbp,
          email: "ada@example.com",
          shipping_address: londonShopper,
          items: [{ variant_id: seed.variants.tee, quantity: 1 }],
        })
        const rates = await shop.get<LastmileRatesResponse>(`/store/lastmile/rates?cart_id=${cart.id}`)
        expect(rates.status).toBe(200)
        expect(rates.data.rates.find((r) => r.shipping_option_id === seed.options.nextDay)).toMatchObject({
          available: true,
          amount: 4.95,
        })

        const order = await orderWith(shop, seed, seed.options.nextDay)
        const task = await waitForTask(getContainer(), order.id)

        expect(task).toMatchObject({ status: "booked", rate_code: "NEXT_DAY" })
        const { data } = await getContainer()
          .resolve(ContainerRegistrationKeys.QUERY)
          .graph({
            entity: "fulfillment",
            fields: ["id", "provider_id", "labels.*"],
            filters: { id: task.fulfillment_id! },
          })
        expect(data[0]).toMatchObject({
          provider_id: PROVIDER_ID,
          labels: [expect.objectContaining({ tracking_number: task.tracking_id })],
        })
        expect(simulator.tasks().filter((t) => t.merchantOrderId === order.id)).toHaveLength(1)
      })
    })
  },
})
