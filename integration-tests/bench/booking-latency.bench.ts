/**
 * Part of `npm run bench`: order placed to booked over 50 orders through the store API, the simulator answering at once
 * and 100 ms slower (the task's booked_at minus the order's created_at); appends its table to BENCHMARKS.md.
 */
import { appendFileSync } from "node:fs"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { percentile } from "../helpers/percentile"
import type { LastmileModuleService } from "../../src/modules/lastmile/service"
import { londonTestLocations } from "../helpers/london-store"
import { seedFromSimulatorLocations } from "../helpers/seed-store"
import { useSimulator } from "../helpers/simulator"
import { Storefront, londonShopper, placeOrder } from "../helpers/storefront"

jest.setTimeout(600_000)

const ORDERS = Number(process.env.BENCH_ORDERS ?? 50)
const locations = londonTestLocations
const { simulator } = useSimulator({ locations: locations() })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    it(`measures placement to booked over ${ORDERS} orders at 0 and 100 ms of service latency`, async () => {
      const seed = await seedFromSimulatorLocations(getContainer(), locations())
      const shop = new Storefront(api, seed.publishableKey)
      const tasks = getContainer().resolve<LastmileModuleService>("lastmile")
      const rows: string[] = []
      const results: Record<number, number[]> = {}

      for (const latency of [0, 100]) {
        simulator.clearFaults()
        if (latency) {
          simulator.addFault({ operation: "quote", kind: "latency", latencyMs: latency })
          simulator.addFault({ operation: "bookDelivery", kind: "latency", latencyMs: latency })
        }
        const durations: number[] = []
        for (let i = 0; i < ORDERS; i++) {
          const cart = await shop.createCart({
            region_id: seed.regions.gbp,
            email: "ada@example.com",
            shipping_address: londonShopper,
            items: [{ variant_id: seed.variants.tee, quantity: 1 }],
          })
          await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: seed.options.nextDay })
          const order = await placeOrder(shop, cart.id)
          const placedAt = new Date((order as unknown as { created_at: string }).created_at).getTime()
          const deadline = Date.now() + 30_000
          for (;;) {
            const [task] = await tasks.listLastmileTasks({ merchant_order_id: order.id })
            if (task?.status === "booked" && task.booked_at) {
              durations.push(new Date(task.booked_at).getTime() - placedAt)
              break
            }
            if (Date.now() > deadline || task?.status === "failed" || task?.status === "needs_attention") {
              throw new Error(`order ${order.id} was not booked: ${JSON.stringify(task)}`)
            }
            await new Promise((resolve) => setTimeout(resolve, 10))
          }
        }
        results[latency] = durations
        rows.push(
          `| ${latency} ms | ${ORDERS} | ${percentile(durations, 50).toFixed(0)} ms | ${percentile(durations, 95).toFixed(0)} ms |`
        )
      }
      const extra = percentile(results[100], 50) - percentile(results[0], 50)
      const section = `
## Booking: order placed → task booked

Produced by \`npm run bench\` (integration-tests/bench/booking-latency.bench.ts): the Medusa app on PostgreSQL, orders placed through the store API one after another, booked by the plugin's \`order.placed\` subscriber against the simulator. Time = the task's \`booked_at\` − the order's \`created_at\`. With latency, 100 ms is added to each quote and each booking call (two calls per order: the re-quote and the booking).

| Service latency | Orders | p50 | p95 |
|---|---|---|---|
${rows.join("\n")}

The p50 difference is ${extra.toFixed(0)} ms for 200 ms of added service latency per order.
`
      appendFileSync("BENCHMARKS.md", section)
      expect(results[0]).toHaveLength(ORDERS)
      expect(results[100]).toHaveLength(ORDERS)
    })
  },
})
