/**
 * Part of `npm run bench` (issue 42): the delivery step's capacity at p95 ≤ 500 ms, open loop, the rates route against
 * Medusa's bare option list and the stock path at the same Poisson arrivals, 100 ms at the simulator (decision 44).
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { cpus } from "node:os"
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import { copyCarts } from "../helpers/cart-copies"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { useSimulator } from "../helpers/simulator"
import { londonShopper } from "../helpers/storefront"
import { capacityRatio, capacityText, curveTable, levelText, ratioText, writeSection } from "./capacity-report"
import {
  type CurvePath,
  LoadClient,
  type Recorder,
  type StepResult,
  capacitySettings,
  describeSettings,
  rampCapacities,
  runArrivals,
  timed,
  waitForQuiet,
} from "./open-loop"

jest.setTimeout(3 * 3600_000)

const LATENCY_MS = 100
const settings = capacitySettings("BENCH_CAPACITY_RATES", [1, 2, 4, 8, 16, 32, 64, 128, 256])
const { simulator } = useSimulator({ locations: londonTestLocations() })

interface Listed {
  shipping_options: { id: string; price_type: string }[]
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const london = useLondonStore(simulator, { api, getContainer })

    it("measures the delivery step's capacity against Medusa's option list and the stock path", async () => {
      const { seed, shop } = london
      const knex = getContainer().resolve<{ raw: (sql: string) => Promise<{ rows: Record<string, unknown>[] }> }>(
        ContainerRegistrationKeys.PG_CONNECTION
      )
      const sql = async (statement: string) => (await knex.raw(statement)).rows
      const template = await shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
      const client = new LoadClient(
        new URL(api.defaults.baseURL!).origin,
        { "x-publishable-api-key": seed.publishableKey },
        settings.timeoutMs
      )
      let batch = 0
      const cartsFor = (n: number) => copyCarts(sql, template.id, n, `cap${++batch}`)

      // One shopper's delivery step, by path: resolves when the step shows its prices.
      const offered = (answer: LastmileRatesResponse) => answer.rates.some((r) => r.available)
      const paths: Record<string, (cartId: string, since: number, record: Recorder) => Promise<void>> = {
        "Rates route": async (cartId, since, record) => {
          await timed<LastmileRatesResponse>(
            record,
            since,
            () => client.request("GET", `/store/lastmile/rates?cart_id=${cartId}`),
            offered
          )
        },
        "Bare option list": async (cartId, since, record) => {
          await timed<Listed>(
            record,
            since,
            () => client.request("GET", `/store/shipping-options?cart_id=${cartId}`),
            (l) => l.shipping_options.length > 0
          )
        },
        "Stock path": async (cartId, since, record) => {
          // The list, then one /calculate per calculated option in parallel: the step is shown when the last answers.
          let ok = true
          const silent: Recorder = {
            sample: (_ms: number, good: boolean) => void (ok &&= good),
            unsent: () => undefined,
            count: () => undefined,
          }
          const listed = await timed<Listed>(silent, since, () =>
            client.request("GET", `/store/shipping-options?cart_id=${cartId}`)
          )
          const calculated = listed?.shipping_options.filter((o) => o.price_type === "calculated") ?? []
          await Promise.all(
            calculated.map((o) =>
              timed(silent, since, () =>
                client.request("POST", `/store/shipping-options/${o.id}/calculate`, { cart_id: cartId })
              )
            )
          )
          record.sample(performance.now() - since, ok && listed !== undefined)
        },
      }

      const ignored: Recorder = { sample: () => undefined, unsent: () => undefined, count: () => undefined }
      // Warm every path (JIT, pools, the catalogue) before the latency is added.
      for (const cart of await cartsFor(15)) {
        const run = Object.values(paths)[Number(cart.split("_").pop()) % 3]
        await run(cart, performance.now(), ignored)
      }
      simulator.addFault({ operation: "*", kind: "latency", latencyMs: LATENCY_MS })

      const curvePaths: CurvePath[] = Object.entries(paths).map(([name, run]) => ({
        name,
        async step(rate, arrivals) {
          const carts = await cartsFor(arrivals.length)
          await waitForQuiet()
          const quotesBefore = simulator.requests("quote").length
          const result = await runArrivals(rate, arrivals, (i, at, record) => run(carts[i], at, record))
          result.counts.quotes = simulator.requests("quote").length - quotesBefore
          simulator.clearRequests()
          return result
        },
      }))
      const [route, bare, stock] = await rampCapacities(settings, curvePaths)
      await client.close()

      const quotesPerState = {
        title: "Quotes per arrival",
        cell: (s: StepResult) => (s.arrivals ? ((s.counts.quotes ?? 0) / s.arrivals).toFixed(2) : "—"),
      }
      const ratio = capacityRatio(route, bare)
      writeSection(
        "Capacity: the delivery step at p95 ≤ 500 ms",
        `
Produced by \`npm run bench\` (integration-tests/bench/capacity-delivery.bench.ts; alone: \`TEST_TYPE=bench NODE_OPTIONS=--experimental-vm-modules npx jest --runInBand --forceExit integration-tests/bench/capacity-delivery.bench.ts\`) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs: the Medusa app on PostgreSQL with the demo's options (next day and ten stores, 11 calculated options), ${LATENCY_MS} ms added to every call at the simulator, the app, the simulator and the load in one process. Open loop: shoppers arrive as a Poisson process at each rate whatever the earlier ones are waiting for, each a new cart state (a cart never priced), and each step is timed from its scheduled arrival to the last answer it needs, so queueing shows. ${describeSettings(settings)}. The service level is Shopify's for a checkout's rate callback, ${levelText}; the **capacity** is the highest rate that held it. "Rates route" is one \`GET /store/lastmile/rates\`; "bare option list" is Medusa's \`GET /store/shipping-options?cart_id=…\`, which prices no calculated option; "stock path" is the list then one \`/calculate\` per calculated option, in parallel (what Medusa's starters do). CPU ms per arrival is this process's (app, simulator and load) over the step divided by its arrivals, background work included (so it reads high at low rates).

| Goal | Measured | |
|---|---|---|
| The delivery step's capacity ≥ 3× Medusa's bare option list's | ${capacityText(route)} ÷ ${capacityText(bare)} = **${ratioText(route, bare)}** | ${ratio !== null && ratio >= 3 ? "**met**" : "**not met**"} |

Capacities: rates route ${capacityText(route)}; bare option list ${capacityText(bare)}; stock path ${capacityText(stock)}. A capacity is known to within the step between the rates tried (the tables).

### Rates route

${curveTable(route, "Steps", quotesPerState)}

### Medusa's bare option list

${curveTable(bare, "Steps")}

### Stock path (the list, then one \`/calculate\` per calculated option)

${curveTable(stock, "Steps", quotesPerState)}
`
      )
      // A run that served nothing measured nothing: the lowest rate must have answered most shoppers.
      expect(route.steps[0].samples).toBe(route.steps[0].arrivals)
      expect(route.steps[0].failureShare).toBeLessThan(0.5)
      expect(bare.steps[0].failureShare).toBeLessThan(0.5)
    })
  },
})
