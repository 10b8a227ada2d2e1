/**
 * Part of `npm run bench` (issue 42): where a whole checkout's CPU goes, lastmile against manual, profiled (decision 44).
 */
import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { mkdirSync } from "node:fs"
import { cpus } from "node:os"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { lastmileTasks } from "../helpers/orders"
import { useSimulator } from "../helpers/simulator"
import { londonShopper } from "../helpers/storefront"
import { writeSection } from "./capacity-report"
import { type CheckoutShop, checkoutSession, ignoredRecorder } from "./checkout-session"
import { LoadClient, processCpuMs, waitForQuiet } from "./open-loop"
import { pluginInclusive, profileTable, profiled, summarise } from "./cpu-profile"

jest.setTimeout(3 * 3600_000)

const LATENCY_MS = 100
const PROFILE_SESSIONS = Number(process.env.BENCH_CAPACITY_PROFILE_SESSIONS ?? 10)
const PROFILES = "test-output/profiles"
const AFTER = "after the order: to booked, then 2 s"

/** Polls until `done` (every 250 ms, at most 3 minutes). */
async function until(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 180_000
  while (!(await done()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
const { simulator } = useSimulator({ locations: londonTestLocations() })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    const london = useLondonStore(simulator, { api, getContainer })

    it("profiles a whole checkout with a lastmile rate against a manual flat rate", async () => {
      const { seed } = london
      // Enough stock for every order of the run.
      const inventory = getContainer().resolve(Modules.INVENTORY)
      const levels = await inventory.listInventoryLevels({})
      await inventory.updateInventoryLevels(
        levels.map((l) => ({
          inventory_item_id: l.inventory_item_id,
          location_id: l.location_id,
          stocked_quantity: 1_000_000,
        }))
      )
      const client = new LoadClient(
        new URL(api.defaults.baseURL!).origin,
        { "x-publishable-api-key": seed.publishableKey },
        30_000
      )

      const shop: CheckoutShop = {
        client,
        regionId: seed.regions.gbp,
        variantId: seed.variants.tee,
        manualOptionId: seed.options.manual,
        address: londonShopper,
      }
      for (let i = 0; i < 4; i++) {
        await checkoutSession(shop, "lastmile")(performance.now(), ignoredRecorder)
        await checkoutSession(shop, "manual")(performance.now(), ignoredRecorder)
      }
      simulator.addFault({ operation: "*", kind: "latency", latencyMs: LATENCY_MS })
      const tasks = lastmileTasks(getContainer())

      // Where the CPU goes: sessions one after another under the profiler, the bookings they cause included.
      mkdirSync(PROFILES, { recursive: true })
      const profiles: string[] = []
      const cpuSplit: { kind: string; byKind: Map<string, number> }[] = []
      for (const kind of ["lastmile", "manual"] as const) {
        await waitForQuiet()
        const cpuByKind = new Map<string, number>()
        const { profile } = await profiled(async () => {
          for (let i = 0; i < PROFILE_SESSIONS; i++) {
            // The sampling profiler itself keeps the process at some percent of a core: a looser idle mark here.
            await waitForQuiet(processCpuMs, 0.35, 30_000)
            const order = await checkoutSession(shop, kind, { byKind: cpuByKind })(performance.now(), ignoredRecorder)
            // What follows the order in this process: the booking (until its row says booked) and, for the messages
            // it sends and the events it raises, 2 s more; the same 2 s after a manual order.
            const after = processCpuMs()
            if (order && kind === "lastmile") {
              await until(async () => {
                const [row] = await tasks.listLastmileTasks({ order_id: order }, { select: ["id", "status"] })
                return row?.status === "booked"
              })
            }
            await new Promise((resolve) => setTimeout(resolve, 2000))
            cpuByKind.set(AFTER, (cpuByKind.get(AFTER) ?? 0) + processCpuMs() - after)
          }
        }, `${PROFILES}/checkout-${kind}.cpuprofile`)
        cpuSplit.push({ kind, byKind: cpuByKind })
        const inclusive = pluginInclusive(profile, 12)
        const summary = summarise(profile, 20)
        const plugin = summary.byArea.filter((a) => a.area.startsWith("plugin"))
        profiles.push(
          `${profileTable(
            kind === "lastmile" ? "Lastmile checkout, booking included" : "Manual flat-rate checkout",
            summary,
            PROFILE_SESSIONS,
            10
          )
            .replace("requests,", "sessions,")
            .replace("ms of CPU each", "ms of CPU per session")}
The plugin's own code by self time: ${plugin.length ? plugin.map((a) => `${a.area.slice(8)} ${(a.ms / PROFILE_SESSIONS).toFixed(1)} ms`).join("; ") : "none sampled"} per session.${
            inclusive.length
              ? `

The plugin's functions by inclusive time (the synchronous part under each, per session):

| Function | Where | ms per session |
|---|---|---|
${inclusive.map((e) => `| ${e.what} | \`${e.where}\` | ${(e.ms / PROFILE_SESSIONS).toFixed(1)} |`).join("\n")}`
              : ""
          }
`
        )
      }
      await client.close()

      /** Where the CPU is the limit, capacity goes as 1 ÷ CPU per session: what the sessions' CPU alone predicts. */
      const cpuRatio = (split: { kind: string; byKind: Map<string, number> }[]) => {
        const total = (kind: string) =>
          [...(split.find((c) => c.kind === kind)?.byKind.values() ?? [])].reduce((a, b) => a + b, 0)
        const [ours, theirs] = [total("lastmile"), total("manual")]
        return ours && theirs
          ? `Where the CPU is the limit, capacity goes as 1 ÷ CPU per session: these sessions' CPU alone puts a lastmile checkout's capacity at **${(theirs / ours).toFixed(2)}×** a manual one's.`
          : ""
      }
      writeSection(
        "Where a checkout's CPU goes",
        `
Produced by \`npm run bench\` (integration-tests/bench/capacity-checkout.bench.ts; alone: \`TEST_TYPE=bench NODE_OPTIONS=--experimental-vm-modules npx jest --runInBand --forceExit integration-tests/bench/capacity-checkout.bench.ts\`) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} CPUs: the Medusa app of the tests on PostgreSQL with the demo's options, ${LATENCY_MS} ms added to every call at the simulator, the app, the simulator and the shopper in one process (the server and the worker's work in one, as \`workerMode: "shared"\` runs them). ${PROFILE_SESSIONS} checkouts of each kind, as the capacity section below sends them, one after another under V8's sampling profiler (\`${PROFILES}/checkout-*.cpuprofile\`), each once the process is idle, the lastmile ones until their orders are booked: the top entries by self time and the share by package, the plugin's rooms last (the app's scheduled jobs, which run every minute, are in the profile too). The capacity itself is measured on the production build (the next section): this app runs Medusa's and the plugin's code through Jest's transform, where even a manual checkout broke the level at the lowest rate tried.

This process's CPU by request in those sessions (one shopper at a time, each starting once the process is idle; work a request leaves running lands in the next row; "after the order" runs from the order's answer until its task is booked, then 2 s for the messages and events that follow), ms per session:

| Request | ${cpuSplit.map((c) => (c.kind === "lastmile" ? "Lastmile" : "Manual")).join(" | ")} |
|---|${cpuSplit.map(() => "---").join("|")}|
${[...new Set(cpuSplit.flatMap((c) => [...c.byKind.keys()]))].map((k) => `| ${k} | ${cpuSplit.map((c) => ((c.byKind.get(k) ?? 0) / PROFILE_SESSIONS).toFixed(0)).join(" | ")} |`).join("\n")}
| **total** | ${cpuSplit.map((c) => ([...c.byKind.values()].reduce((a, b) => a + b, 0) / PROFILE_SESSIONS).toFixed(0)).join(" | ")} |

${cpuRatio(cpuSplit)}

${profiles.join("\n")}
`
      )
      // Sessions that never completed measured nothing.
      expect(cpuSplit.every((c) => (c.byKind.get("complete") ?? 0) > 0)).toBe(true)
    })
  },
})
