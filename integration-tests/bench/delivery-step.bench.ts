/**
 * Part of `npm run bench`: how long a shopper's delivery step waits for its
 * prices, end to end through Medusa's HTTP API, with 100 ms added to every
 * call at the simulator and the 11 lastmile options of the demo (next day
 * and ten stores). Two paths, measured in the same run and interleaved:
 *
 * - the plugin's: one `GET /store/lastmile/rates` (what the storefront entry
 *   and the dtc-starter recipe call);
 * - the stock storefront's: `GET /store/shipping-options?cart_id=…`, then one
 *   `POST /store/shipping-options/:id/calculate` per calculated option, in
 *   parallel (what Medusa's starters do).
 *
 * "New state" is a cart never priced before; "unchanged" asks again for a
 * cart already priced. The yardstick is one raw quote round trip: the
 * plugin's own client calling the simulator directly. Appends its table to
 * BENCHMARKS.md.
 */
import { appendFileSync } from "node:fs"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { percentile } from "../helpers/percentile"
import { LastmileClient } from "../../src/lib/service-client"
import type { QuoteRequest } from "../../src/lib/contracts/service-shapes"
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { TEST_API_KEY, useSimulator } from "../helpers/simulator"
import { londonShopper } from "../helpers/storefront"

jest.setTimeout(900_000)

const STATES = Number(process.env.BENCH_STATES ?? 30)
const REPEATS = Number(process.env.BENCH_REPEATS ?? 60)
const LATENCY_MS = 100
const { simulator } = useSimulator({ locations: londonTestLocations() })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const london = useLondonStore(simulator, { api, getContainer })

    it(`prices the delivery step of ${STATES} new cart states and ${REPEATS} unchanged ones`, async () => {
      const { seed, shop } = london
      const newCart = async () =>
        (
          await shop.createCart({
            region_id: seed.regions.gbp,
            email: "ada@example.com",
            shipping_address: londonShopper,
            items: [{ variant_id: seed.variants.tee, quantity: 1 }],
          })
        ).id
      const timed = async <T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> => {
        const started = performance.now()
        const value = await run()
        return { ms: performance.now() - started, value }
      }
      const pluginPath = async (cartId: string) => {
        const response = await shop.get<LastmileRatesResponse>(`/store/lastmile/rates?cart_id=${cartId}`)
        if (response.status !== 200) {
          throw new Error(`rates answered ${response.status}`)
        }
        return response.data.rates.filter((r) => r.available).length
      }
      const stockPath = async (cartId: string) => {
        const listed = await shop.get<{ shipping_options: { id: string; price_type: string; provider_id: string }[] }>(
          `/store/shipping-options?cart_id=${cartId}`
        )
        const calculated = listed.data.shipping_options.filter((o) => o.price_type === "calculated")
        const priced = await Promise.all(
          calculated.map((o) =>
            shop.post<{ shipping_option: { amount?: number } }>(`/store/shipping-options/${o.id}/calculate`, {
              cart_id: cartId,
            })
          )
        )
        return priced.filter((p) => p.status === 200 && typeof p.data.shipping_option.amount === "number").length
      }

      // Warm up both paths (JIT, pools, the store directory) before any latency.
      for (let i = 0; i < 5; i++) {
        await pluginPath(await newCart())
        await stockPath(await newCart())
      }
      const template = simulator.requests("quote").at(-1)!.body as QuoteRequest
      const client = new LastmileClient({ apiKey: TEST_API_KEY, baseUrl: simulator.url })
      simulator.addFault({ operation: "*", kind: "latency", latencyMs: LATENCY_MS })

      const raw: number[] = []
      const plugin = { fresh: [] as number[], again: [] as number[], quotes: 0, offered: new Set<number>() }
      const stock = { fresh: [] as number[], again: [] as number[], quotes: 0, offered: new Set<number>() }
      for (let i = 0; i < STATES; i++) {
        const order = { ...template.order, merchantOrderId: `bench_raw_${i}`, merchantOrderName: `bench_raw_${i}` }
        raw.push((await timed(() => client.quote({ ...template, order }))).ms)

        const [ours, theirs] = [await newCart(), await newCart()]
        let before = simulator.requests("quote").length
        const a = await timed(() => pluginPath(ours))
        plugin.fresh.push(a.ms)
        plugin.offered.add(a.value)
        plugin.quotes += simulator.requests("quote").length - before

        before = simulator.requests("quote").length
        const b = await timed(() => stockPath(theirs))
        stock.fresh.push(b.ms)
        stock.offered.add(b.value)
        stock.quotes += simulator.requests("quote").length - before
      }
      const [ours, theirs] = [await newCart(), await newCart()]
      await pluginPath(ours)
      await stockPath(theirs)
      const quotesBefore = simulator.requests("quote").length
      for (let i = 0; i < REPEATS; i++) {
        plugin.again.push((await timed(() => pluginPath(ours))).ms)
        stock.again.push((await timed(() => stockPath(theirs))).ms)
      }
      const quotesAgain = simulator.requests("quote").length - quotesBefore

      const p50 = (values: number[]) => percentile(values, 50)
      const p95 = (values: number[]) => percentile(values, 95)
      const ms = (v: number) => `${v.toFixed(1)} ms`
      const rawP50 = p50(raw)
      const overRaw = p50(plugin.fresh) - rawP50
      const section = `
## Delivery step: all 11 options priced, through Medusa's HTTP API

Produced by \`npm run bench\` (integration-tests/bench/delivery-step.bench.ts): the Medusa app on PostgreSQL with the demo's options (next day and ten stores, 11 calculated options), ${LATENCY_MS} ms added to every call at the simulator. "Plugin" is one \`GET /store/lastmile/rates\`, as the storefront entry and the dtc-starter recipe call it; "stock" is what Medusa's starters do: \`GET /store/shipping-options\`, then one \`/calculate\` per calculated option in parallel. A new state is a cart never priced before (${STATES} each, interleaved); unchanged asks again for a cart already priced (${REPEATS} each). The yardstick is one raw quote round trip: the plugin's client calling the simulator directly.

| What | Plugin p50 / p95 | Stock p50 / p95 | Ratio at p50 |
|---|---|---|---|
| New cart state | ${ms(p50(plugin.fresh))} / ${ms(p95(plugin.fresh))} | ${ms(p50(stock.fresh))} / ${ms(p95(stock.fresh))} | ${(p50(stock.fresh) / p50(plugin.fresh)).toFixed(1)}× faster |
| Unchanged cart state | ${ms(p50(plugin.again))} / ${ms(p95(plugin.again))} | ${ms(p50(stock.again))} / ${ms(p95(stock.again))} | ${(p50(stock.again) / p50(plugin.again)).toFixed(1)}× faster |
| Upstream quotes per new state | ${(plugin.quotes / STATES).toFixed(2)} | ${(stock.quotes / STATES).toFixed(2)} | |
| Options offered per answer | ${[...plugin.offered].join(", ")} | ${[...stock.offered].join(", ")} | |

One raw quote round trip: p50 ${ms(rawP50)}. A new state costs the plugin's route the quote plus ${ms(overRaw)} at p50 (goal: at most 40 ms${overRaw <= 40 ? ", met" : ", not met"}); an unchanged state ${ms(p50(plugin.again))} (goal: at most 30 ms${p50(plugin.again) <= 30 ? ", met" : ", not met"}), with ${quotesAgain} upstream quotes over ${REPEATS * 2} repeated asks on both paths (a quote is renewed when its 30 s in the cache run out).
`
      appendFileSync("BENCHMARKS.md", section)
      expect(plugin.quotes).toBe(STATES)
      expect([...plugin.offered]).toEqual([11])
    })
  },
})
