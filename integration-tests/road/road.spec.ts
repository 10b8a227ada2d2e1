/** The road of one placed order in the real app (placed → booked → delivered → messaged): which `src/` files ran. */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { filesRun, startCounting } from "../helpers/files-run"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { londonShopper } from "../helpers/storefront"

jest.setTimeout(180_000)

const ROOT = join(__dirname, "..", "..")
const { simulator } = useSimulator({ locations: londonTestLocations() })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const london = useLondonStore(simulator, { api, getContainer })

    /** The shopper's messages as Medusa's Notification Module keeps them, once `template` is among them. */
    const messagesOnce = async (email: string, template: string) => {
      for (let tries = 0; tries < 300; tries++) {
        const sent = await getContainer().resolve(Modules.NOTIFICATION).listNotifications({ to: email })
        if (sent.some((n) => n.template === template)) {
          return sent.map((n) => n.template)
        }
        await sleep(100)
      }
      throw new Error(`${email} never got ${template}`)
    }

    it("takes one order from placed to delivered and messaged", async () => {
      const { seed, shop } = london
      simulator.configure({ webhookUrl: `${api.defaults.baseURL}/hooks/lastmile/${TEST_WEBHOOK_SECRET}` })
      const email = `road-${Date.now()}@example.com`
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        email,
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
      expect(
        (await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: seed.options.nextDay })).status
      ).toBe(200)
      const collection = await shop.post<{ payment_collection: { id: string } }>("/store/payment-collections", {
        cart_id: cart.id,
      })
      const paymentPath = `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`
      expect((await shop.post(paymentPath, { provider_id: "pp_system_default" })).status).toBe(200)

      // The scheduled jobs run at each minute's start and are no order's road: the span starts after them, and the
      // checkout's own counting (flushed 5 s after its last price) is done by then.
      await sleep(6_000)
      while (new Date().getSeconds() < 5 || new Date().getSeconds() > 35) {
        await sleep(500)
      }
      const counting = await startCounting()
      const placedAt = Date.now()
      const completed = await shop.post<{ type: string; order: { id: string } }>(`/store/carts/${cart.id}/complete`, {})
      expect([completed.status, completed.data.type]).toEqual([200, "order"])
      const orderId = completed.data.order.id

      expect(await messagesOnce(email, "lastmile-delivery-booked")).toEqual(["lastmile-delivery-booked"])
      const task = simulator.tasks().find((t) => t.merchantOrderId === orderId)!
      simulator.setTaskStatus(task.taskId, "DELIVERED")
      expect((await messagesOnce(email, "lastmile-delivery-delivered")).sort()).toEqual([
        "lastmile-delivery-booked",
        "lastmile-delivery-delivered",
      ])
      // What the order set off after its last message: the chosen option's count (flushed 5 s after placing).
      await simulator.webhooks.idle()
      await sleep(Math.max(1_000, placedAt + 6_000 - Date.now()))
      const runs = await filesRun(counting, ROOT)
      const seconds = (Date.now() - placedAt) / 1000

      expect(runs.filter((r) => r.file.startsWith("src/jobs/"))).toEqual([])
      expect(runs.map((r) => r.file)).toEqual(
        expect.arrayContaining(["src/subscribers/lastmile-order-placed.ts", "src/api/hooks/lastmile/[token]/route.ts"])
      )
      if (process.env.ROAD_REPORT) {
        writeFileSync(process.env.ROAD_REPORT, JSON.stringify({ seconds, files: runs }, null, 2))
      }
    })
  },
})
