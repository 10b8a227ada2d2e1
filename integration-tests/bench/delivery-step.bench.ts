/**
 * Part of `npm run bench`: the delivery step through Medusa's HTTP API against Medusa's own answers in one run, with
 * 100 ms added at the simulator (decision 44; the series are listed in docs/developing.md). Appends to BENCHMARKS.md.
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { percentile } from "../helpers/percentile"
import { LastmileClient } from "../../src/lib/service-client"
import type { QuoteRequest } from "../../src/lib/contracts/service-shapes"
import type { LastmileRatesResponse } from "../../src/lib/checkout/option-rate"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { TEST_API_KEY, useSimulator } from "../helpers/simulator"
import { Storefront, londonShopper } from "../helpers/storefront"
import { type StoreScale, seedStoreScales } from "../helpers/store-scale"
import { type ProfileSummary, profileTable, profiled, summarise } from "./cpu-profile"

jest.setTimeout(900_000)

const LATENCY_MS = 100
const STATES = Number(process.env.BENCH_STATES ?? 30)
const REPEATS = Number(process.env.BENCH_REPEATS ?? 200)
const SHOPPERS = 50
const SCALES = [10, 50, 150]
const BASELINE = "integration-tests/bench/baseline/delivery-step-before.md"
const PROFILES = "test-output/profiles"
const { simulator } = useSimulator({ locations: londonTestLocations() })

/** Counts what each request reads: SQL statements sent to PostgreSQL and `query.graph` calls. */
function readCounter(graph: { graph: (...args: never[]) => unknown }) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pg = require("pg") as { Client: { prototype: { query: (...args: unknown[]) => unknown } } }
  const counts = { sql: 0, graph: 0 }
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    counts.sql++
    return query.apply(this, args)
  }
  const read = graph.graph.bind(graph)
  graph.graph = ((...args: never[]) => {
    counts.graph++
    return read(...args)
  }) as typeof graph.graph
  return counts
}

/** `text` as a regular expression that matches it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const london = useLondonStore(simulator, { api, getContainer })

    it("measures the delivery step against Medusa's own option list", async () => {
      const { seed, shop } = london
      const scales = await seedStoreScales(getContainer(), seed, londonTestLocations(), SCALES)
      const shopOf = (scale: StoreScale) => new Storefront(api, scale.publishableKey)
      const newCart = async (store = shop) =>
        (
          await store.createCart({
            region_id: seed.regions.gbp,
            email: "ada@example.com",
            shipping_address: londonShopper,
            items: [{ variant_id: seed.variants.tee, quantity: 1 }],
          })
        ).id
      const carts = async (n: number, store = shop) => {
        const ids: string[] = []
        for (let i = 0; i < n; i++) {
          ids.push(await newCart(store))
        }
        return ids
      }
      const ok = async <T>(answer: Promise<{ status: number; data: T }>): Promise<T> => {
        const { status, data } = await answer
        if (status !== 200) {
          throw new Error(`answered ${status}: ${JSON.stringify(data).slice(0, 300)}`)
        }
        return data
      }
      const timed = async (run: () => Promise<unknown>): Promise<number> => {
        const started = performance.now()
        await run()
        return performance.now() - started
      }
      const rates = (cartId: string, store = shop) =>
        ok(store.get<LastmileRatesResponse>(`/store/lastmile/rates?cart_id=${cartId}`))
      const bare = (cartId: string, store = shop) => ok(store.get(`/store/shipping-options?cart_id=${cartId}`))
      const stock = async (cartId: string, store = shop) => {
        const listed = await ok(
          store.get<{ shipping_options: { id: string; price_type: string }[] }>(
            `/store/shipping-options?cart_id=${cartId}`
          )
        )
        const calculated = listed.shipping_options.filter((o) => o.price_type === "calculated")
        await Promise.all(
          calculated.map((o) => ok(store.post(`/store/shipping-options/${o.id}/calculate`, { cart_id: cartId })))
        )
        return calculated.length
      }
      const choose = (cartId: string) =>
        ok(shop.post(`/store/carts/${cartId}/shipping-methods`, { option_id: seed.options.nextDay }))

      // Warm up every path (JIT, pools, the catalogue) before any latency.
      for (let i = 0; i < 5; i++) {
        const cart = await newCart()
        await rates(cart)
        await bare(cart)
        await stock(cart)
        await choose(cart)
      }
      const template = simulator.requests("quote").at(-1)!.body as QuoteRequest
      const client = new LastmileClient({ apiKey: TEST_API_KEY, baseUrl: simulator.url })
      simulator.addFault({ operation: "*", kind: "latency", latencyMs: LATENCY_MS })
      const p50 = (values: number[]) => percentile(values, 50)
      const p95 = (values: number[]) => percentile(values, 95)
      const ms = (v: number) => `${v.toFixed(1)} ms`

      // 1. One shopper at a time, ten stores: a new state, an unchanged one, the bare list, adding a method.
      const raw: number[] = []
      const fresh: number[] = []
      const listing: number[] = []
      let quotes = 0
      for (let i = 0; i < STATES; i++) {
        const order = { ...template.order, merchantOrderId: `bench_raw_${i}`, merchantOrderName: `bench_raw_${i}` }
        raw.push(await timed(() => client.quote({ ...template, order })))
        const [ours, theirs] = [await newCart(), await newCart()]
        const before = simulator.requests("quote").length
        fresh.push(await timed(() => rates(ours)))
        quotes += simulator.requests("quote").length - before
        listing.push(await timed(() => bare(theirs)))
      }
      const unchangedCart = await newCart()
      await rates(unchangedCart)
      const unchanged: number[] = []
      for (let i = 0; i < REPEATS; i++) {
        unchanged.push(await timed(() => rates(unchangedCart)))
      }
      const chosen: number[] = []
      for (const cart of await carts(20)) {
        await rates(cart)
        chosen.push(await timed(() => choose(cart)))
      }
      const rtt = p50(raw)

      // 2. What one request reads, each path alone.
      const counts = readCounter(getContainer().resolve(ContainerRegistrationKeys.QUERY))
      const reads: [string, () => Promise<unknown>][] = []
      {
        const [cart, other] = [await newCart(), await newCart()]
        await rates(other)
        reads.push(
          ["Rates route, new cart state", () => rates(cart)],
          ["Rates route, unchanged cart state", () => rates(cart)],
          ["Medusa's bare `GET /store/shipping-options`", () => bare(cart)],
          [
            "Medusa's `/calculate`, one option",
            () => ok(shop.post(`/store/shipping-options/${seed.options.nextDay}/calculate`, { cart_id: cart })),
          ],
          ["`POST /store/carts/:id/shipping-methods`, rates shown", () => choose(other)]
        )
      }
      const readRows: string[] = []
      for (const [what, run] of reads) {
        counts.sql = 0
        counts.graph = 0
        const before = simulator.requests("quote").length
        await run()
        readRows.push(`| ${what} | ${counts.sql} | ${counts.graph} | ${simulator.requests("quote").length - before} |`)
      }

      // 3. Fifty shoppers at once, each a new cart state, against the bare list; two rounds each, interleaved.
      const burst = async (run: (cartId: string) => Promise<unknown>) => {
        const ids = await carts(SHOPPERS)
        const started = performance.now()
        const times = await Promise.all(ids.map((id) => timed(() => run(id))))
        return { times, wall: performance.now() - started }
      }
      const crowd = { ours: [] as number[], theirs: [] as number[], oursWall: 0, theirsWall: 0 }
      for (let round = 0; round < 2; round++) {
        const ours = await burst((id) => rates(id))
        const theirs = await burst((id) => bare(id))
        crowd.ours.push(...ours.times)
        crowd.theirs.push(...theirs.times)
        crowd.oursWall += ours.wall
        crowd.theirsWall += theirs.wall
      }
      const crowdRatio = p95(crowd.ours) / p95(crowd.theirs)

      // 4. Store scale: the route, the bare list and the stock path at 10, 50 and 150 stores.
      const scaleRows: string[] = []
      let atMost = { ratio: 0, stores: 0 }
      for (const scale of scales) {
        simulator.setLocations(scale.locations)
        const store = shopOf(scale)
        const route: number[] = []
        const list: number[] = []
        const stockPath: number[] = []
        const offered = new Set<number>()
        for (let i = 0; i < 10; i++) {
          const [ours, theirs] = [await newCart(store), await newCart(store)]
          route.push(await timed(async () => offered.add((await rates(ours, store)).rates.length)))
          list.push(await timed(() => bare(theirs, store)))
        }
        for (let i = 0; i < 3; i++) {
          const cart = await newCart(store)
          stockPath.push(await timed(() => stock(cart, store)))
        }
        const ratio = p50(route) / (p50(list) + rtt)
        atMost = scale.stores === Math.max(...SCALES) ? { ratio, stores: scale.stores } : atMost
        scaleRows.push(
          `| ${scale.stores} (${[...offered].join(", ")} options) | ${ms(p50(route))} | ${ms(p50(list))} | ${ms(p50(stockPath))} | ${(p50(route) / p50(list)).toFixed(2)} | ${ratio.toFixed(2)} | ${(p50(stockPath) / p50(route)).toFixed(1)}× |`
        )
      }
      simulator.setLocations(londonTestLocations())

      // 5. Where the CPU goes, each phase under the profiler (ten stores).
      mkdirSync(PROFILES, { recursive: true })
      const phase = async (file: string, ids: string[], run: (cartId: string) => Promise<unknown>) => {
        const { profile } = await profiled(async () => {
          for (const id of ids) {
            await run(id)
          }
        }, `${PROFILES}/after-${file}.cpuprofile`)
        return { summary: summarise(profile, 20), requests: ids.length }
      }
      const profiles: [string, { summary: ProfileSummary; requests: number }][] = []
      profiles.push(["Rates route, new cart state", await phase("rates-new", await carts(STATES), (id) => rates(id))])
      const again = await newCart()
      await rates(again)
      profiles.push([
        "Rates route, unchanged cart state",
        await phase("rates-unchanged", Array(STATES * 5).fill(again), (id) => rates(id)),
      ])
      profiles.push([
        "Medusa's bare `GET /store/shipping-options`",
        await phase("bare-list", await carts(STATES), bare),
      ])
      const shown = await carts(STATES)
      for (const id of shown) {
        await rates(id)
      }
      profiles.push(["`POST /store/carts/:id/shipping-methods`, rates shown", await phase("add-method", shown, choose)])

      // Before and after side by side: the baseline's CPU per request and reads, by the same titles.
      const baseline = readFileSync(BASELINE, "utf8")
      const cpuBefore = (title: string) =>
        baseline.match(new RegExp(`\\*\\*${escape(title)}\\*\\*: \\d+ requests, ([\\d.]+) ms of CPU each`))?.[1]
      const readsBefore = (title: string) =>
        baseline.match(new RegExp(`\\|\\s*${escape(title)}\\s*\\|\\s*(\\d+)\\s*\\|\\s*(\\d+)\\s*\\|`))?.slice(1, 3)
      const change = profiles.map(([title, { summary, requests }]) => {
        const now = (summary.cpuMs / requests).toFixed(1)
        const read = readRows
          .find((row) => row.startsWith(`| ${title} |`))
          ?.split("|")
          .map((cell) => cell.trim())
        const earlier = readsBefore(title)
        return `| ${title} | ${cpuBefore(title) ?? "?"} → **${now}** | ${earlier ? `${earlier[0]} → **${read?.[2]}**` : "?"} | ${earlier ? `${earlier[1]} → **${read?.[3]}**` : "?"} |`
      })
      const goal = (met: boolean) => (met ? "**met**" : "**not met**")
      const overRtt = p50(fresh) - rtt
      const before = readFileSync(BASELINE, "utf8").trim()
      const section = `
## Delivery step: the rates route against Medusa's own option list

Produced by \`npm run bench\` (integration-tests/bench/delivery-step.bench.ts): the Medusa app on PostgreSQL with the demo's options (next day and ten stores, 11 calculated options; 50 and 150 stores in sales channels of their own), ${LATENCY_MS} ms added to every call at the simulator, the app, the simulator and the shoppers in one process on this machine. "Route" is one \`GET /store/lastmile/rates\`; "bare list" is Medusa's \`GET /store/shipping-options?cart_id=…\`, which prices no calculated option; "stock path" is what Medusa's starters do: the bare list, then one \`/calculate\` per calculated option, in parallel. A new state is a cart never priced before; unchanged asks again for a cart already priced. The yardstick (RTT) is one raw quote round trip: the plugin's client calling the simulator directly, p50 ${ms(rtt)}.

### Issue 30's goals, measured in this run

| Goal | Measured | |
|---|---|---|
| Unchanged cart state, p50 ≤ 10 ms | ${ms(p50(unchanged))} (p95 ${ms(p95(unchanged))}, ${REPEATS} asks) | ${goal(p50(unchanged) <= 10)} |
| New cart state, p50 ≤ RTT + 20 ms | ${ms(p50(fresh))} = RTT + ${ms(overRtt)} (p95 ${ms(p95(fresh))}, ${STATES} states; ${(quotes / STATES).toFixed(2)} quotes per state) | ${goal(overRtt <= 20)} |
| ${SHOPPERS} shoppers at once, each a new state: route p95 ÷ bare list p95 ≤ 1.1 | ${ms(p95(crowd.ours))} ÷ ${ms(p95(crowd.theirs))} = **${crowdRatio.toFixed(2)}** (p50 ${ms(p50(crowd.ours))} against ${ms(p50(crowd.theirs))}; ${SHOPPERS} served in ${ms(crowd.oursWall / 2)} against ${ms(crowd.theirsWall / 2)}, two rounds each) | ${goal(crowdRatio <= 1.1)} |
| ${atMost.stores} stores, new state: route ≤ bare list + RTT | ratio ${atMost.ratio.toFixed(2)} (the table below) | ${goal(atMost.ratio <= 1)} |

One shopper at a time, ten stores: the bare list p50 ${ms(p50(listing))}; adding a shipping method after the rates were shown p50 ${ms(p50(chosen))} (p95 ${ms(p95(chosen))}).

### Store scale, new cart state, p50

| Stores | Route | Bare list | Stock path | Route ÷ bare list | Route ÷ (bare list + RTT) | Stock path ÷ route |
|---|---|---|---|---|---|---|
${scaleRows.join("\n")}

### What one request reads

Counted in this process: SQL statements sent to PostgreSQL (the publishable key's check is 2 of them) and \`query.graph\` calls, with the quotes the simulator answered.

| Request | SQL statements | \`query.graph\` calls | Quotes |
|---|---|---|---|
${readRows.join("\n")}

### Before and after: CPU and reads per request

CPU per request from the profiles below (ten stores, one shopper at a time) and the reads from the table above, against the same benchmark run on the code before this design (the last section). The new state no longer runs Medusa's list-with-pricing workflow (its steps, its cart read across modules, the sales channel's read, two option queries) nor the plugin's head-start quote and second cart read: it reads the cart once, takes the listing and the products' shipping profiles from the catalogue, and prices the listed options from the state's one quote. The unchanged state reads the cart once, in one statement, and sends the JSON kept. Adding a shipping method no longer lists and prices the cart's options in the plugin's check; the rest of that request is Medusa's own workflow (its listing and its cart refresh).

| Request | CPU ms | SQL statements | \`query.graph\` calls |
|---|---|---|---|
${change.join("\n")}

### Where the CPU goes

V8's sampling profiler around each phase (ten stores, one shopper at a time; \`${PROFILES}/after-*.cpuprofile\` opens in Chrome's DevTools or speedscope): CPU per request, the top entries of the flat view by self time, and the share by package. The app, the simulator and the benchmark's HTTP client share the process; idle time is left out.

${profiles.map(([title, { summary, requests }]) => profileTable(title, summary, requests, 8)).join("\n")}
${before}
`
      appendFileSync("BENCHMARKS.md", section)
      expect(quotes).toBe(STATES)
    })
  },
})
