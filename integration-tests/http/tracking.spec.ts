import { request as httpRequest } from "node:http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { signBody } from "../../src/lib/tracking/webhook-auth"
import { pollOpenTasks } from "../../src/workflows/sync-task-status/run"
import { TASK_STATUS_CHANGED_EVENT } from "../../src/lib/tracking/task-sync"
import type { SeededStore } from "../helpers/seed-store"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { type TaskRow, lastmileTasks, orderWith, requestReturn, waitForTask } from "../helpers/orders"
import { adminFor } from "../helpers/admin"
import { ROLLED_BACK_OUTCOME } from "../../src/workflows/sync-task-status/steps/list-waiting-webhook-events"
import { TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import type { Storefront } from "../helpers/storefront"

jest.setTimeout(120_000)

const SIGNING_SECRET = "sign_test_0123456789abcdef"

const { simulator } = useSimulator(
  {
    locations: londonTestLocations(),
    config: {
      webhook: { payload: "full", retryBaseMs: 100, retryMaxMs: 1000, maxAttempts: 5, signingSecret: SIGNING_SECRET },
    },
  },
  {
    LASTMILE_WEBHOOK_SIGNING_SECRET: SIGNING_SECRET,
    LASTMILE_MARK_RETURNS_RECEIVED: "true",
  }
)

interface FulfillmentRow {
  id: string
  shipped_at: string | null
  delivered_at: string | null
  labels: { tracking_number: string; tracking_url: string }[]
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront
    let hookUrl: string
    const london = useLondonStore(simulator, { api, getContainer })
    const emitted: { name: string; data: Record<string, unknown> }[] = []

    beforeAll(() => {
      ;({ seed, shop } = london)
      hookUrl = `${api.defaults.baseURL}/hooks/lastmile/${TEST_WEBHOOK_SECRET}`
      const eventBus = getContainer().resolve(Modules.EVENT_BUS)
      for (const name of ["shipment.created", "delivery.created", TASK_STATUS_CHANGED_EVENT]) {
        eventBus.subscribe(
          name,
          async (event) => {
            emitted.push({ name, data: event.data as Record<string, unknown> })
          },
          { subscriberId: `tracking-spec-${name}` }
        )
      }
    })
    beforeEach(() => {
      simulator.configure({ webhookUrl: hookUrl })
    })

    const bookedOrder = async () => {
      const order = await orderWith(shop, seed, seed.options.nextDay)
      const task = await waitForTask(getContainer(), order.id)
      expect(task.status).toBe("booked")
      return { order, task, taskId: Number(task.task_id) }
    }
    const taskOf = (merchantOrderId: string, done: (task: TaskRow) => boolean) =>
      waitForTask(getContainer(), merchantOrderId, done)
    const fulfillmentOf = async (id: string): Promise<FulfillmentRow> => {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "fulfillment",
        fields: ["id", "shipped_at", "delivered_at", "labels.tracking_number", "labels.tracking_url"],
        filters: { id },
      })
      return data[0] as FulfillmentRow
    }
    const eventsFor = (name: string, key: string, value: string) =>
      emitted.filter((e) => e.name === name && e.data[key] === value)
    const webhookEvents = () => lastmileTasks(getContainer()).listLastmileWebhookEvents({}, { take: 10_000 })
    const lookups = (orderId: string) =>
      simulator.requests("lookupDelivery").filter((r) => r.query.merchantOrderId === orderId)
    /** Posts a body as the service would, signed unless told otherwise. */
    const postHook = (body: string, { url = hookUrl, signature = signBody(body, SIGNING_SECRET) } = {}) =>
      api.post(url, body, {
        headers: { "content-type": "application/json", ...(signature ? { "x-lastmile-signature": signature } : {}) },
        validateStatus: () => true,
        transformRequest: [(data: unknown) => data],
      })
    /** Starts a POST with the given headers (a declared length, say) and a few bytes, and returns the status it gets. */
    const rawPost = (url: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const target = new URL(url)
        const req = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: "POST",
            path: target.pathname,
            agent: false,
            headers: { "content-type": "application/json", ...headers },
          },
          (res) => {
            res.resume()
            resolve(res.statusCode ?? 0)
            req.destroy()
          }
        )
        req.on("error", (error) => (req.destroyed ? undefined : reject(error)))
        req.write('{"taskId":')
      })
    const settle = async () => {
      await simulator.webhooks.idle()
      await new Promise((resolve) => setTimeout(resolve, 300))
    }

    it("moves the fulfillment to shipped, then delivered, with its tracking labels intact", async () => {
      const { order, task, taskId } = await bookedOrder()
      expect(task).toMatchObject({ service_status: "NOT_STARTED", tracking_state: "awaiting" })

      simulator.setTaskStatus(taskId, "IN_TRANSIT")
      const shipped = await taskOf(order.id, (t) => t.tracking_state === "shipped")
      expect(shipped.service_status).toBe("IN_TRANSIT")
      let fulfillment = await fulfillmentOf(task.fulfillment_id!)
      expect(fulfillment.shipped_at).not.toBeNull()
      expect(fulfillment.delivered_at).toBeNull()
      expect(fulfillment.labels).toEqual([
        expect.objectContaining({ tracking_number: task.tracking_id, tracking_url: task.tracking_url }),
      ])

      simulator.setTaskStatus(taskId, "DELIVERED")
      const delivered = await taskOf(order.id, (t) => t.tracking_state === "delivered")
      fulfillment = await fulfillmentOf(task.fulfillment_id!)
      expect(fulfillment.delivered_at).not.toBeNull()
      expect(fulfillment.labels).toEqual([
        expect.objectContaining({ tracking_number: task.tracking_id, tracking_url: task.tracking_url }),
      ])
      expect(delivered.status_history.entries.map((e) => [e.value, e.source ?? "booking"])).toEqual([
        ["NOT_STARTED", "booking"],
        ["IN_TRANSIT", "webhook"],
        ["DELIVERED", "webhook"],
      ])
      await settle()
      expect(eventsFor("shipment.created", "id", task.fulfillment_id!)).toHaveLength(1)
      expect(eventsFor("delivery.created", "id", task.fulfillment_id!)).toHaveLength(1)
      expect(eventsFor(TASK_STATUS_CHANGED_EVENT, "order_id", order.id).map((e) => e.data.status)).toEqual([
        "IN_TRANSIT",
        "DELIVERED",
      ])
      // The simulator got a 200 for every webhook, first time.
      expect(simulator.webhooks.attempts.filter((a) => a.taskId === taskId).map((a) => a.status)).toEqual([200, 200])
    })

    it("gives one shipment and one delivery for the same webhook ten times, and for delivered before in transit", async () => {
      const { order, task, taskId } = await bookedOrder()
      simulator.configure({ webhookUrl: undefined })
      simulator.setTaskStatus(taskId, "DELIVERED")
      const body = JSON.stringify({ eventId: `evt_dup_${taskId}`, taskId, status: { value: "DELIVERED" } })
      const answers = await Promise.all(Array.from({ length: 10 }, () => postHook(body)))
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
      await taskOf(order.id, (t) => t.tracking_state === "delivered")

      // The late "in transit" doorbell, with the service itself answering IN_TRANSIT to the re-read.
      simulator.configure({ webhookUrl: hookUrl })
      simulator.setTaskStatus(taskId, "IN_TRANSIT")
      await settle()
      const final = await taskOf(order.id, (t) => t.service_status === "IN_TRANSIT")
      expect(final.tracking_state).toBe("delivered")
      const fulfillment = await fulfillmentOf(task.fulfillment_id!)
      expect(fulfillment.shipped_at).not.toBeNull()
      expect(fulfillment.delivered_at).not.toBeNull()
      expect(fulfillment.labels).toHaveLength(1)
      expect(eventsFor("shipment.created", "id", task.fulfillment_id!)).toHaveLength(1)
      expect(eventsFor("delivery.created", "id", task.fulfillment_id!)).toHaveLength(1)

      const stored = (await webhookEvents()).filter((e) => e.lastmile_task_id === task.id)
      expect(
        stored
          .filter((e) => e.event_key === `id:evt_dup_${taskId}`)
          .map((e) => e.status)
          .sort()
      ).toEqual([...Array(9).fill("duplicate"), "processed"])
      // Ten doorbells, one re-read for them (plus one for the late one).
      expect(lookups(order.id).length).toBeLessThanOrEqual(3)
    })

    it("rejects a forged token, a missing token, a bad signature, an oversized body and a malformed one, changing nothing", async () => {
      const { order, task, taskId } = await bookedOrder()
      simulator.configure({ webhookUrl: undefined })
      simulator.setTaskStatus(taskId, "DELIVERED")
      const before = (await webhookEvents()).length
      const body = JSON.stringify({ taskId, status: { value: "DELIVERED" } })
      const base = `${api.defaults.baseURL}/hooks/lastmile`

      const forged = await postHook(body, { url: `${base}/whsec_test_0123456789abcdeX` })
      expect([forged.status, forged.data]).toEqual([401, "Unauthorized"])
      expect((await postHook(body, { url: `${base}/` })).status).toBe(401)
      expect((await postHook(body, { url: base })).status).toBe(401)
      expect((await postHook(body, { signature: "" })).status).toBe(401)
      expect((await postHook(body, { signature: signBody(body, "not_the_signing_secret") })).status).toBe(401)
      const oversized = JSON.stringify({ taskId, padding: "x".repeat(70 * 1024) })
      // Unsigned, or signed by someone else: refused before a row is written, however large it claims to be.
      expect((await postHook(oversized, { signature: "" })).status).toBe(401)
      expect((await postHook(oversized, { signature: signBody(oversized, "not_the_signing_secret") })).status).toBe(401)
      const huge = await rawPost(hookUrl, { "content-length": String(500 * 1024 * 1024) })
      expect(huge).toBe(401)
      const hugeForged = await rawPost(hookUrl, {
        "content-length": String(500 * 1024 * 1024),
        "x-lastmile-signature": signBody(body, SIGNING_SECRET),
      })
      expect(hugeForged).toBe(413)
      // Signed by the service: refused for its size, and recorded for the merchant.
      const tooLarge = await postHook(oversized)
      expect(tooLarge.status).toBe(413)
      const malformed = await postHook("{taskId: 1001")
      expect(malformed.status).toBe(400)
      expect(malformed.data.message).toBe("The webhook body must be JSON")
      expect((await postHook("[1,2]")).status).toBe(400)

      await new Promise((resolve) => setTimeout(resolve, 300))
      // Bodies refused after authentication are kept for the merchant, redacted: size and digest, never content.
      const events = await webhookEvents()
      const refused = events.filter((e) => e.status === "refused")
      expect(refused.map((e) => e.outcome).sort()).toEqual([
        "The webhook body must be JSON",
        "The webhook body must be a JSON object",
        "Webhook bodies are limited to 65536 bytes",
      ])
      expect(JSON.stringify(refused)).not.toContain("xxxx")
      expect(events.filter((e) => e.status !== "refused")).toHaveLength(before)
      expect(lookups(order.id)).toHaveLength(0)
      const unchanged = await taskOf(order.id, () => true)
      expect(unchanged).toMatchObject({ tracking_state: "awaiting", service_status: "NOT_STARTED" })
      expect((await fulfillmentOf(task.fulfillment_id!)).shipped_at).toBeNull()

      // A genuine event for a task this store does not know: 200, recorded as ignored.
      const unknown = await postHook(JSON.stringify({ taskId: 987654 }))
      expect(unknown.status).toBe(200)
      const ignored = (await webhookEvents()).filter((e) => e.task_reference === "taskId=987654")
      expect(ignored).toEqual([expect.objectContaining({ status: "ignored", lastmile_task_id: null })])
    })

    it("converges by polling when webhooks are off, and then stops reading a delivered task", async () => {
      const { order, task, taskId } = await bookedOrder()
      simulator.configure({ webhookUrl: undefined })
      simulator.setTaskStatus(taskId, "OUT_FOR_DELIVERY")
      simulator.setTaskStatus(taskId, "DELIVERED")

      const later = new Date(Date.now() + 10 * 60_000)
      const outcomes = await pollOpenTasks(getContainer(), { now: later })
      expect(outcomes[task.id]).toMatchObject({
        ok: true,
        changed: true,
        status: "DELIVERED",
        trackingState: "delivered",
      })
      const fulfillment = await fulfillmentOf(task.fulfillment_id!)
      expect(fulfillment.shipped_at).not.toBeNull()
      expect(fulfillment.delivered_at).not.toBeNull()
      expect(fulfillment.labels).toHaveLength(1)
      const polled = await taskOf(order.id, () => true)
      expect(polled.status_history.entries.at(-1)).toMatchObject({ value: "DELIVERED", source: "poll" })

      simulator.clearRequests()
      const again = await pollOpenTasks(getContainer(), { now: new Date(later.getTime() + 10 * 60_000) })
      expect(again[task.id]).toBeUndefined()
      expect(lookups(order.id)).toHaveLength(0)
    })

    it("records an unknown status, shows it, and keeps tracking", async () => {
      const { order, task, taskId } = await bookedOrder()
      simulator.setTaskStatus(taskId, "TELEPORTED")
      const odd = await taskOf(order.id, (t) => t.service_status === "TELEPORTED")
      expect(odd).toMatchObject({ unmapped_status: "TELEPORTED", tracking_state: "awaiting" })
      expect(odd.status_history.entries.at(-1)).toMatchObject({ value: "TELEPORTED", phase: "unknown" })
      await settle()
      const stored = (await webhookEvents()).filter((e) => e.lastmile_task_id === task.id)
      expect(stored.at(-1)).toMatchObject({ status: "processed" })
      expect(stored.at(-1)?.outcome).toContain("unknown status, recorded")

      simulator.setTaskStatus(taskId, "DELIVERED")
      await taskOf(order.id, (t) => t.tracking_state === "delivered")
      expect((await fulfillmentOf(task.fulfillment_id!)).delivered_at).not.toBeNull()
    })

    it("marks a return received when its task is delivered", async () => {
      const { order } = await bookedOrder()
      const returnId = await requestReturn(api, getContainer(), seed, order.id, "tracking-returns@lastmile.test")
      const task = await waitForTask(getContainer(), returnId)
      expect(task.status).toBe("booked")

      simulator.setTaskStatus(Number(task.task_id), "DELIVERED")
      await taskOf(returnId, (t) => t.tracking_state === "delivered")
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({ entity: "return", fields: ["id", "status"], filters: { id: returnId } })
      expect(data[0].status).toBe("received")
    })

    it("changes nothing when the lookup fails, and undoes a move Medusa refuses, leaving the events to the poll", async () => {
      const { order, task, taskId } = await bookedOrder()
      await settle()
      const admin = await adminFor(api, getContainer())
      const refresh = async () =>
        (
          await admin.post<{ outcomes: { ok: boolean; outcome: string }[] }>(
            `/admin/lastmile/orders/${order.id}/refresh`
          )
        ).data.outcomes[0]

      simulator.addFault({ operation: "lookupDelivery", kind: "status", status: 503 })
      const unread = await refresh()
      simulator.clearFaults()
      expect(unread).toMatchObject({ ok: false })
      expect(unread.outcome).toContain("not updated")
      expect(await lastmileTasks(getContainer()).retrieveLastmileTask(task.id)).toMatchObject({
        service_status: task.service_status,
        tracking_state: "awaiting",
      })

      // The order is cancelled under the run (a race the dashboard can win): Medusa refuses to mark it delivered.
      const knex = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      await knex("order").where({ id: order.id }).update({ canceled_at: new Date(), status: "canceled" })
      simulator.setTaskStatus(taskId, "DELIVERED")
      await settle()
      const before = lookups(order.id).length
      const refused = await refresh()

      expect(refused).toMatchObject({ ok: false })
      expect(refused.outcome).toContain("canceled")
      // A cancelled order is Medusa's INVALID_DATA, not a move under the run (NOT_ALLOWED): it is not read again.
      expect(lookups(order.id).length - before).toBe(1)
      const row = await lastmileTasks(getContainer()).retrieveLastmileTask(task.id)
      expect(row).toMatchObject({ service_status: task.service_status, tracking_state: "awaiting" })
      expect((await fulfillmentOf(task.fulfillment_id!)).delivered_at).toBeNull()
      const stored = (await webhookEvents()).filter((e) => e.lastmile_task_id === task.id)
      expect(stored.at(-1)).toMatchObject({ status: "failed", outcome: ROLLED_BACK_OUTCOME })
      expect(eventsFor(TASK_STATUS_CHANGED_EVENT, "id", task.id).filter((e) => e.data.status === "DELIVERED")).toEqual(
        []
      )
    })
  },
})
