/**
 * Part of `npm run bench`: webhook acknowledgement over 1000 signed-token posts, 100 in flight, with 100 ms added to
 * each lookup, against the same re-read done inside the request (decision 14). Appends its table to BENCHMARKS.md.
 */
import { appendFileSync } from "node:fs"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { percentile } from "../helpers/percentile"
import { Pool } from "undici"
import { syncTaskStatus } from "../../src/workflows/sync-task-status/run"
import { londonTestLocations } from "../helpers/london-store"
import { lastmileTasks, orderWith, waitForTask } from "../helpers/orders"
import { seedFromSimulatorLocations } from "../helpers/seed-store"
import { TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { Storefront } from "../helpers/storefront"

jest.setTimeout(600_000)

const POSTS = Number(process.env.BENCH_WEBHOOKS ?? 1000)
const CONCURRENCY = 100
const ORDERS = 20
const LOOKUP_LATENCY_MS = 100
const { simulator } = useSimulator({ locations: londonTestLocations() })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    it(`acknowledges ${POSTS} webhooks at ${CONCURRENCY} concurrent`, async () => {
      const seed = await seedFromSimulatorLocations(getContainer(), londonTestLocations())
      const shop = new Storefront(api, seed.publishableKey)
      const tasks: { id: string; taskId: number }[] = []
      for (let i = 0; i < ORDERS; i++) {
        const order = await orderWith(shop, seed, seed.options.nextDay)
        const task = await waitForTask(getContainer(), order.id)
        tasks.push({ id: task.id, taskId: Number(task.task_id) })
      }
      simulator.addFault({ operation: "lookupDelivery", kind: "latency", latencyMs: LOOKUP_LATENCY_MS })

      // The same re-read, inside a request's time: what an inline webhook handler would answer in.
      const inline: number[] = []
      for (const task of tasks) {
        const started = performance.now()
        await syncTaskStatus(getContainer(), task.id, { source: "admin" })
        inline.push(performance.now() - started)
      }

      const url = new URL(`${api.defaults.baseURL}/hooks/lastmile/${TEST_WEBHOOK_SECRET}`)
      /** Posts POSTS bodies, CONCURRENCY at a time; returns each post's time to its answer. */
      const pool = new Pool(url.origin, { connections: CONCURRENCY, pipelining: 1 })
      const blast = async (path: string) => {
        const times: number[] = []
        const statuses: Record<number, number> = {}
        let next = 0
        const started = performance.now()
        const worker = async () => {
          for (let i = next++; i < POSTS; i = next++) {
            const task = tasks[i % tasks.length]
            const body = JSON.stringify({
              eventId: `bench_${path.length}_${i}`,
              taskId: task.taskId,
              status: { value: "NOT_STARTED" },
            })
            const sent = performance.now()
            const response = await pool.request({
              method: "POST",
              path,
              headers: { "content-type": "application/json" },
              body,
            })
            await response.body.dump()
            times.push(performance.now() - sent)
            statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1
          }
        }
        await Promise.all(Array.from({ length: CONCURRENCY }, worker))
        const wall = performance.now() - started
        return { times, statuses, wall }
      }
      // The floor: Medusa's HTTP stack answering a wrong token, with no database work (this also opens the connections).
      const refused = await blast(`${url.pathname}x`)
      const startedAll = performance.now()
      const { times: acks, statuses, wall: ackedAll } = await blast(url.pathname)
      await pool.close()

      // Every accepted event is processed in the background, coalesced per task.
      const module = lastmileTasks(getContainer())
      const deadline = Date.now() + 120_000
      let waiting = POSTS
      while (waiting > 0 && Date.now() < deadline) {
        waiting = (await module.listLastmileWebhookEvents({ status: "received" }, { take: POSTS })).length
        if (waiting) {
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
      const processedAll = performance.now() - startedAll
      const lookups = simulator.requests("lookupDelivery").length

      const p50 = percentile(acks, 50)
      const section = `
## Webhooks: acknowledgement latency

Produced by \`npm run bench\` (integration-tests/bench/webhook-ack.bench.ts): the Medusa app on PostgreSQL, ${POSTS} posts to \`POST /hooks/lastmile/:token\` with ${CONCURRENCY} in flight at a time (undici pool, keep-alive), spread over ${ORDERS} booked orders, each with its own event id; ${LOOKUP_LATENCY_MS} ms added to every lookup at the simulator. Each post is authenticated, stored and answered; a subscriber re-reads the task afterwards. "Inline" is the same re-read timed on its own, ${ORDERS} times: what a handler that processed inside the request would answer in, before any queueing.

| What | p50 | p99 | max |
|---|---|---|---|
| Webhook acknowledged (${POSTS} posts, ${CONCURRENCY} concurrent) | ${p50.toFixed(1)} ms | ${percentile(acks, 99).toFixed(1)} ms | ${Math.max(...acks).toFixed(1)} ms |
| Refused, wrong token (no database work; the HTTP stack's floor) | ${percentile(refused.times, 50).toFixed(1)} ms | ${percentile(refused.times, 99).toFixed(1)} ms | ${Math.max(...refused.times).toFixed(1)} ms |
| Inline re-read and apply (one at a time) | ${percentile(inline, 50).toFixed(1)} ms | ${percentile(inline, 99).toFixed(1)} ms | ${Math.max(...inline).toFixed(1)} ms |

Answers: ${JSON.stringify(statuses)}. All ${POSTS} acknowledged in ${(ackedAll / 1000).toFixed(2)} s (${(POSTS / (ackedAll / 1000)).toFixed(0)}/s); all processed ${(processedAll / 1000).toFixed(2)} s after the first post, with ${lookups} lookups at the service for ${POSTS} webhooks (processing waiting behind one task's lock is answered by the re-read already under way). At p50 an acknowledgement costs ${(p50 / percentile(refused.times, 50)).toFixed(1)}× the refusal floor; it never waits for the service, whose re-read alone takes ${percentile(inline, 50).toFixed(0)} ms here.
`
      appendFileSync("BENCHMARKS.md", section)
      expect(statuses[200]).toBe(POSTS)
      expect(refused.statuses[401]).toBe(POSTS)
      expect(waiting).toBe(0)
    })
  },
})
