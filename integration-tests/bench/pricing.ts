/**
 * `npm run bench`: checkout pricing against the simulator with the quote cache and without, and the checkout caches'
 * memory after 10,000 cart states. Writes BENCHMARKS.md; its figures are ratios from one run on one machine.
 */
import { writeFileSync } from "node:fs"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { RatesAnswers } from "../../src/lib/checkout/rates-answers"
import { type OptionPrice, toOptionRate } from "../../src/lib/checkout/option-rate"
import { moreStores } from "../helpers/store-scale"
import { cpus } from "node:os"
import { performance } from "node:perf_hooks"
import { LastmileFulfillmentProviderService } from "../../src/providers/lastmile/service"
import { LastmileSimulator, alwaysOpenHours, londonLocations } from "../../packages/simulator/src"
import { londonShopper } from "../helpers/storefront"
import { percentile } from "../helpers/percentile"

const KEY = "bench_key_0123456789"
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50)
const CARTS = Number(process.env.BENCH_CARTS ?? 30)
const STATES_FOR_MEMORY = Number(process.env.BENCH_MEMORY_STATES ?? 10_000)
const REFRESHES = Number(process.env.BENCH_REFRESHES ?? 300)
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined }

function context(cartId: string, store?: { id: string; externalId: string }) {
  return {
    id: cartId,
    currency_code: "gbp",
    items: [{ variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 1 }],
    shipping_address: londonShopper,
    lastmile_customer_email: "ada@example.com",
    lastmile_dispatch_address: {
      address_1: "Unit 7, Abbey Road",
      city: "London",
      postal_code: "NW10 7SJ",
      country_code: "gb",
    },
    from_location: {
      id: store?.id ?? "sloc_warehouse",
      address: {
        address_1: "x",
        city: "London",
        postal_code: "NW10 7SJ",
        country_code: "gb",
        metadata: store ? { external_location_id: store.externalId } : null,
      },
    },
  } as never
}

const ms = (v: number) => `${v.toFixed(v < 1 ? 3 : 1)} ms`
const ratio = (a: number, b: number) => `${(a / b).toFixed(a / b < 10 ? 1 : 0)}×`

async function main(): Promise<void> {
  const locations = londonLocations(["DEMO-TEE"]).map((l) => ({ ...l, operatingHours: alwaysOpenHours() }))
  const stores = locations
    .filter((l) => l.collectionEnabled)
    .map((l) => ({ id: `sloc_${l.fulfilmentLocationId}`, externalId: l.externalLocationId! }))
  const sim = new LastmileSimulator({ config: { apiKey: KEY }, locations })
  await sim.start()
  sim.addFault({ operation: "quote", kind: "latency", latencyMs: LATENCY_MS })
  const provider = (ttl: number) =>
    new LastmileFulfillmentProviderService({ logger: silent } as never, {
      api_key: KEY,
      base_url: sim.url,
      quote_cache_ttl_seconds: ttl,
    })
  const cached = provider(30)
  const uncached = provider(0)

  // 1. A checkout page prices all 11 options of a new cart state at once.
  const pricePage = async (p: LastmileFulfillmentProviderService, cartId: string) => {
    const started = performance.now()
    await Promise.all([
      p.calculatePrice({ id: "lastmile-next-day" }, {}, context(cartId)),
      ...stores.map((s) => p.calculatePrice({ id: "lastmile-collection" }, {}, context(cartId, s))),
    ])
    return performance.now() - started
  }
  const page = { cached: [] as number[], uncached: [] as number[], quotesCached: 0, quotesUncached: 0 }
  for (let i = 0; i < CARTS; i++) {
    let before = sim.requests("quote").length
    page.cached.push(await pricePage(cached, `cart_c_${i}`))
    page.quotesCached += sim.requests("quote").length - before
    before = sim.requests("quote").length
    page.uncached.push(await pricePage(uncached, `cart_u_${i}`))
    page.quotesUncached += sim.requests("quote").length - before
    sim.clearRequests()
  }

  // 2. Cart refreshes re-price the chosen method with the cart state unchanged.
  const refresh = { cached: [] as number[], uncached: [] as number[] }
  await cached.calculatePrice({ id: "lastmile-next-day" }, {}, context("cart_refresh"))
  for (let i = 0; i < REFRESHES; i++) {
    let started = performance.now()
    await cached.calculatePrice({ id: "lastmile-next-day" }, {}, context("cart_refresh"))
    refresh.cached.push(performance.now() - started)
    if (i < 60) {
      started = performance.now()
      await uncached.calculatePrice({ id: "lastmile-next-day" }, {}, context("cart_refresh"))
      refresh.uncached.push(performance.now() - started)
    }
  }

  // 3. The service is down: the failure is remembered briefly (negative cache) per cart state.
  sim.clearFaults()
  sim.addFault({ operation: "quote", kind: "status", status: 503 })
  const down = { cached: [] as number[], uncached: [] as number[], quotesCached: 0, quotesUncached: 0 }
  sim.clearRequests()
  for (let i = 0; i < 20; i++) {
    let before = sim.requests("quote").length
    let started = performance.now()
    await cached.calculatePrice({ id: "lastmile-next-day" }, {}, context("cart_down"))
    down.cached.push(performance.now() - started)
    down.quotesCached += sim.requests("quote").length - before
    before = sim.requests("quote").length
    started = performance.now()
    await uncached.calculatePrice({ id: "lastmile-next-day" }, {}, context("cart_down"))
    down.uncached.push(performance.now() - started)
    down.quotesUncached += sim.requests("quote").length - before
  }
  await sim.stop()

  // 4. Two delivery types against the strict service shapes: each type is quoted once per cart state.
  const strict = new LastmileSimulator({ profile: "strict", config: { apiKey: KEY }, locations })
  await strict.start()
  strict.addFault({ operation: "quote", kind: "latency", latencyMs: LATENCY_MS })
  const twoTypes = (ttl: number) =>
    new LastmileFulfillmentProviderService({ logger: silent } as never, {
      api_key: KEY,
      base_url: strict.url,
      quote_cache_ttl_seconds: ttl,
      delivery_types: ["NEXT_DAY", "SAME_DAY"],
    })
  const [typesCached, typesUncached] = [twoTypes(30), twoTypes(0)]
  const priceTypes = (p: LastmileFulfillmentProviderService, cartId: string) =>
    Promise.all([
      p.calculatePrice({ id: "lastmile-next-day" }, {}, context(cartId)),
      p.calculatePrice({ id: "lastmile-same-day" }, {}, context(cartId)),
      ...stores.map((s) => p.calculatePrice({ id: "lastmile-collection" }, {}, context(cartId, s))),
    ])
  const types = { quotesCached: 0, quotesUncached: 0 }
  for (let i = 0; i < CARTS; i++) {
    let before = strict.requests("quote").length
    await priceTypes(typesCached, `cart_t_${i}`)
    types.quotesCached += strict.requests("quote").length - before
    before = strict.requests("quote").length
    await priceTypes(typesUncached, `cart_tu_${i}`)
    types.quotesUncached += strict.requests("quote").length - before
  }
  await strict.stop()

  // 5. Memory: 10,000 distinct cart states priced (all 11 options each) and answered, as fast as they come.
  const memory = await cachesAfter([
    { stores: 10, states: STATES_FOR_MEMORY },
    { stores: 150, states: Math.min(STATES_FOR_MEMORY, 1_000) },
  ])

  const p50 = (v: number[]) => percentile(v, 50)
  const p95 = (v: number[]) => percentile(v, 95)
  const rows = [
    `| Pricing all 11 options of a new cart state (next day + 10 stores), wall time p50 / p95 | ${ms(p50(page.cached))} / ${ms(p95(page.cached))} | ${ms(p50(page.uncached))} / ${ms(p95(page.uncached))} | ${ratio(p50(page.uncached), p50(page.cached))} faster at p50 |`,
    `| Upstream quotes for those 11 options, per cart state | ${(page.quotesCached / CARTS).toFixed(1)} | ${(page.quotesUncached / CARTS).toFixed(1)} | ${ratio(page.quotesUncached, page.quotesCached)} fewer |`,
    `| Re-pricing a chosen method on a cart refresh (state unchanged), p50 / p95 | ${ms(p50(refresh.cached))} / ${ms(p95(refresh.cached))} | ${ms(p50(refresh.uncached))} / ${ms(p95(refresh.uncached))} | ${ratio(p50(refresh.uncached), p50(refresh.cached))} faster at p50 |`,
    `| Service down (503): 20 refreshes of one cart state within 5 s, upstream requests (retries included) | ${down.quotesCached} | ${down.quotesUncached} | ${ratio(down.quotesUncached, down.quotesCached)} fewer |`,
    `| Service down (503): time per refresh p50 | ${ms(p50(down.cached))} | ${ms(p50(down.uncached))} | ${ratio(p50(down.uncached), p50(down.cached))} faster |`,
    `| Two delivery types (NEXT_DAY, SAME_DAY) and 10 stores, strict service shapes: upstream quotes per cart state (one per type is the floor) | ${(types.quotesCached / CARTS).toFixed(1)} | ${(types.quotesUncached / CARTS).toFixed(1)} | ${ratio(types.quotesUncached, types.quotesCached)} fewer |`,
  ]
  const report = `# Benchmarks

Produced by \`npm run bench\` (integration-tests/bench/pricing.ts) on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} CPUs. The provider runs in-process against the simulator over loopback HTTP, with ${LATENCY_MS} ms of added latency on each quote (\`BENCH_LATENCY_MS\`). "Plugin" is the provider as shipped (30 s quote cache, single flight, 5 s failure cache); "no cache" is the same provider with \`quote_cache_ttl_seconds: 0\`, which is what a provider without a quote cache does. ${CARTS} cart states for the first two rows, ${REFRESHES} refreshes (60 without cache) for the third. Ratios compare the two columns of one run.

| Scenario | Plugin | No cache | Ratio |
|---|---|---|---|
${rows.join("\n")}

## Memory: the checkout caches after ${STATES_FOR_MEMORY.toLocaleString("en")} distinct cart states, and at 150 stores

${memory}
`
  writeFileSync("BENCHMARKS.md", report)
  process.stdout.write(report)
}

/**
 * The provider as shipped and the rates route's answers, fed distinct cart
 * states (each with all its options) with no latency, far faster than any
 * shop: every entry is still alive at the end, so the caches hold what their
 * bounds allow. The heap is measured after a full collection, in a 10-store
 * shop and in a 150-store one.
 */
async function cachesAfter(runs: { stores: number; states: number }[]): Promise<string> {
  setFlagsFromString("--expose-gc")
  const gc = runInNewContext("gc") as () => void
  const heap = () => {
    gc()
    gc()
    return process.memoryUsage().heapUsed
  }
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
  const rows: string[] = []
  for (const run of runs) {
    const seeded = londonLocations(["DEMO-TEE"]).map((l) => ({ ...l, operatingHours: alwaysOpenHours() }))
    const locations = [...seeded, ...moreStores(run.stores - (seeded.length - 1), ["DEMO-TEE"])]
    const sim = new LastmileSimulator({ config: { apiKey: KEY }, locations })
    await sim.start()
    const provider = new LastmileFulfillmentProviderService({ logger: silent } as never, {
      api_key: KEY,
      base_url: sim.url,
    })
    const answers = new RatesAnswers()
    const options = [
      { id: "so_next_day", name: "Next day delivery", kind: "delivery" as const, data: { id: "lastmile-next-day" } },
      ...locations
        .filter((l) => l.collectionEnabled)
        .map((l) => ({
          id: `so_${l.fulfilmentLocationId}`,
          name: `Collect from ${l.name}`,
          kind: "collection" as const,
          data: { id: "lastmile-collection" },
          store: { id: `sloc_${l.fulfilmentLocationId}`, externalId: l.externalLocationId! },
        })),
    ]
    const priceState = async (i: number) => {
      const cartId = `cart_memory_${i}`
      const prices: OptionPrice[] = await Promise.all(
        options.map((o) => provider.calculatePrice(o.data, {}, context(cartId, "store" in o ? o.store : undefined)))
      )
      await answers.get(cartId, "state", async () => ({
        answer: {
          cart_id: cartId,
          currency_code: "gbp",
          eligibility: "FULL",
          rates: options.map((o, n) => toOptionRate({ ...o, location: null }, prices[n], "gbp")),
        },
        ttlMs: 30_000,
      }))
    }
    await priceState(-1)
    const before = heap()
    const started = performance.now()
    let next = 0
    const worker = async () => {
      while (next < run.states) {
        await priceState(next++)
      }
    }
    await Promise.all(Array.from({ length: 8 }, worker))
    const seconds = (performance.now() - started) / 1000
    const after = heap()
    const kept = answers.size
    rows.push(
      `| ${run.stores} stores (${options.length} options) | ${run.states.toLocaleString("en")} in ${seconds.toFixed(1)} s | ${mb(before)} | ${mb(after)} | **${mb(after - before)}** | ${kept.answers.toLocaleString("en")} (${mb(kept.bytes)}) |`
    )
    await sim.stop()
  }
  return `Produced by \`npm run bench\` (integration-tests/bench/pricing.ts): the provider as shipped and the rates route's answer store, fed distinct cart states (all options of each, every state its own quote) with no added latency. That is hours of a shop's states arriving within every cache's 30 s lifetime: nothing has expired yet, so each cache holds what its bound allows, the worst case. Heap used is read after a full collection.

| Shop | Cart states | Heap before | Heap after | Growth | Rates answers kept (estimated size) |
|---|---|---|---|---|---|
${rows.join("\n")}

The bounds (decision 43): the provider's quote store holds at most 2,000 quotes and 50,000 rates (a quote per cart state and delivery type, with the options priced from it), each for 30 s (5 s for a failure); the rates route keeps the latest answer of at most 10,000 carts and 32 MB of JSON, each until its oldest quote expires; the catalogue is one per app (the store's lastmile options, its listings per sales channel and zone, at most 1,000, the products' shipping profiles), read again every minute. Entries are dropped when they expire, so at 10,000 states an hour (about three a second) about 85 quotes and answers are alive at any time; the table shows the most the caches can hold.`
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
