import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createAdminHeaders } from "../helpers/admin-auth"
import { useSimulator } from "../helpers/simulator"

jest.setTimeout(120_000)

const { simulator } = useSimulator()

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let admin: { headers: Record<string, string> }

    beforeEach(async () => {
      admin = await createAdminHeaders(getContainer())
    })

    describe("the lastmile fulfillment provider", () => {
      it("is registered and enabled as lastmile_lastmile beside the manual provider", async () => {
        const response = await api.get("/admin/fulfillment-providers?limit=50", admin)

        expect(response.status).toBe(200)
        const ids = response.data.fulfillment_providers.map((p: { id: string }) => p.id)
        expect(ids).toEqual(expect.arrayContaining(["lastmile_lastmile", "manual_manual"]))
        const lastmile = response.data.fulfillment_providers.find((p: { id: string }) => p.id === "lastmile_lastmile")
        expect(lastmile.is_enabled).toBe(true)
      })

      it("lists next-day delivery, click & collect and return as fulfillment options", async () => {
        const response = await api.get("/admin/fulfillment-providers/lastmile_lastmile/options", admin)

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
        await api.get("/admin/fulfillment-providers/lastmile_lastmile/options", admin)
        expect(simulator.requests()).toEqual([])
      })
    })
  },
})
