/**
 * Every way back, and cancelling a booked order, through the store and admin APIs with the bodies a storefront and the
 * dashboard send, against the simulator's strict profile (decisions 6 and 13). The app books at placement.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import type { SeededStore } from "../helpers/seed-store"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { type Admin, adminFor } from "../helpers/admin"
import { lastmileTasks, orderWith, waitForTask } from "../helpers/orders"
import { TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import type { Storefront } from "../helpers/storefront"
import { retryDueBookings } from "../../src/workflows/book-task/run"

jest.setTimeout(120_000)

const { simulator } = useSimulator(
  {
    profile: "strict",
    locations: londonTestLocations(),
    config: { webhook: { payload: "minimal", retryBaseMs: 100, retryMaxMs: 1000, maxAttempts: 5 } },
  },
  { LASTMILE_QUOTE_BUDGET_MS: "2000" }
)

interface TaskView {
  id: string
  kind: string
  origin: string
  label: string
  status: string
  task_id: string | null
  merchant_order_id: string
  cancel_at_service: boolean
  cancellation: { by: string; actor_id?: string | null; service_status?: string | null } | null
  last_error: string | null
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront
    let admin: Admin
    let hookUrl: string

    const london = useLondonStore(simulator, { api, getContainer })
    beforeAll(async () => {
      ;({ seed, shop } = london)
      admin = await adminFor(api, getContainer())
      hookUrl = `${api.defaults.baseURL}/hooks/lastmile/${TEST_WEBHOOK_SECRET}`
    })
    beforeEach(() => {
      simulator.useProfile("strict", { webhookUrl: hookUrl })
    })

    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const itemsOf = async (orderId: string) => {
      const { data } = await query().graph({ entity: "order", fields: ["items.*"], filters: { id: orderId } })
      return data[0].items as unknown as { id: string; variant_id: string; quantity: number }[]
    }
    const orderFulfillments = async (orderId: string) => {
      const { data } = await query().graph({
        entity: "order",
        fields: ["fulfillments.id", "fulfillments.canceled_at", "fulfillments.data"],
        filters: { id: orderId },
      })
      return (data[0].fulfillments ?? []) as { id: string; canceled_at: string | null; data: Record<string, unknown> }[]
    }
    const widgetTasks = async (orderId: string) => {
      const response = await admin.get<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${orderId}`)
      expect(response.status).toBe(200)
      return response.data.tasks
    }
    const returnPosts = (returnId: string) =>
      simulator
        .requests("bookReturn")
        .filter((r) => (r.body as { order?: { merchantOrderId?: string } })?.order?.merchantOrderId === returnId)
    const bookedOrder = async (optionId = seed.options.nextDay) => {
      const order = await orderWith(shop, seed, optionId)
      const task = await waitForTask(getContainer(), order.id)
      expect(task.status).toBe("booked")
      return { order, task }
    }

    describe("returns", () => {
      it("books a return the shopper requests in the storefront, to the location Medusa resolved from the option", async () => {
        const { order } = await bookedOrder()
        const [tee] = await itemsOf(order.id)
        // The storefront's body: no location (a storefront does not know stock locations).
        const requested = await shop.post<{ return: { id: string } }>("/store/returns", {
          order_id: order.id,
          items: [{ id: tee.id, quantity: 1 }],
          return_shipping: { option_id: seed.options.returns },
        })
        expect(requested.status).toBe(200)
        const returnId = requested.data.return.id

        const task = await waitForTask(getContainer(), returnId)
        expect(task.status).toBe("booked")
        expect(returnPosts(returnId)).toHaveLength(1)
        expect(returnPosts(returnId)[0].body).toMatchObject({
          order: {
            merchantOrderId: returnId,
            merchantOrderName: `#${order.display_id} return`,
            lineItems: [{ merchantProductId: "DEMO-TEE", quantity: 1 }],
          },
          collection: { address: { line1: "10 Downing Street", postcode: "SW1A 2AA" } },
          delivery: { address: { line1: "Unit 7, Abbey Road", postcode: "NW10 7SJ" } },
        })
        expect((await widgetTasks(order.id)).map((t) => [t.label, t.status])).toEqual([
          ["Delivery", "booked"],
          ["Return", "booked"],
        ])
      })

      it("books an exchange's return and its replacement when the exchange is confirmed", async () => {
        const { order } = await bookedOrder()
        const [tee] = await itemsOf(order.id)
        const exchange = await admin.replacement(
          "exchange",
          { id: order.id, itemId: tee.id },
          { variantId: seed.variants.mug, optionId: seed.options.nextDay },
          seed.options.returns
        )

        expect((await waitForTask(getContainer(), exchange.returnId)).status).toBe("booked")
        const replacement = await waitForTask(getContainer(), exchange.id)
        expect(replacement.status).toBe("booked")
        const booking = simulator
          .requests("bookDelivery")
          .find((r) => (r.body as { order: { merchantOrderId: string } }).order.merchantOrderId === exchange.id)
        expect(booking?.body).toMatchObject({
          order: {
            merchantOrderName: `Replacement for #${order.display_id}`,
            lineItems: [{ merchantProductId: "DEMO-MUG" }],
          },
        })
        expect((await widgetTasks(order.id)).map((t) => t.label).sort()).toEqual(
          ["Delivery", "Replacement (exchange)", "Return"].sort()
        )
      })

      it("books a claim's return and its replacement when the claim is confirmed", async () => {
        const { order } = await bookedOrder()
        const [tee] = await itemsOf(order.id)
        const claim = await admin.replacement(
          "claim",
          { id: order.id, itemId: tee.id },
          { variantId: seed.variants.mug, optionId: seed.options.nextDay },
          seed.options.returns
        )

        expect((await waitForTask(getContainer(), claim.returnId)).status).toBe("booked")
        expect((await waitForTask(getContainer(), claim.id)).status).toBe("booked")
        expect((await widgetTasks(order.id)).map((t) => t.label).sort()).toEqual(
          ["Delivery", "Replacement (claim)", "Return"].sort()
        )
      })

      it("never posts a return twice when its answer is lost and the lookup cannot find it", async () => {
        const { order } = await bookedOrder()
        const [tee] = await itemsOf(order.id)
        simulator.addFault({ operation: "bookReturn", kind: "dropAfterCommit", times: 1 })
        const requested = await shop.post<{ return: { id: string } }>("/store/returns", {
          order_id: order.id,
          items: [{ id: tee.id, quantity: 1 }],
          return_shipping: { option_id: seed.options.returns },
        })
        const returnId = requested.data.return.id
        const task = await waitForTask(getContainer(), returnId)
        // The service kept it, but hides returns from its lookup: the merchant checks, nothing is posted again.
        expect(task.status).toBe("needs_attention")
        await retryDueBookings(getContainer(), { now: new Date(Date.now() + 60 * 60_000) })
        expect(returnPosts(returnId)).toHaveLength(1)
        expect(simulator.tasks().filter((t) => t.merchantOrderId === returnId)).toHaveLength(1)
      })

      it("adopts a return whose answer is lost when the lookup does show returns", async () => {
        simulator.configure({ returnLookup: "listed", returnDeduplication: true, returnTaskType: "RETURN" })
        const { order } = await bookedOrder()
        const [tee] = await itemsOf(order.id)
        simulator.addFault({ operation: "bookReturn", kind: "dropAfterCommit", times: 1 })
        const requested = await shop.post<{ return: { id: string } }>("/store/returns", {
          order_id: order.id,
          items: [{ id: tee.id, quantity: 1 }],
          return_shipping: { option_id: seed.options.returns },
        })
        const task = await waitForTask(getContainer(), requested.data.return.id)
        expect(task).toMatchObject({ status: "booked", adopted: true })
        expect(returnPosts(requested.data.return.id)).toHaveLength(1)
      })
    })

    describe("cancelling a booked order", () => {
      it("refuses while the task is live at the service, naming it and where to cancel", async () => {
        const { order, task } = await bookedOrder()
        const cancelFulfillment = await admin.post<{ message: string }>(
          `/admin/orders/${order.id}/fulfillments/${task.fulfillment_id}/cancel`
        )
        expect(cancelFulfillment.status).toBe(400)
        expect(cancelFulfillment.data.message).toContain(`task ${task.task_id}`)
        expect(cancelFulfillment.data.message).toContain("service's app")
        const cancelOrder = await admin.post(`/admin/orders/${order.id}/cancel`)
        expect(cancelOrder.status).toBe(400)
        const [view] = await widgetTasks(order.id)
        expect(view).toMatchObject({ cancel_at_service: true, cancellation: null })
      })

      it("cancels Medusa's fulfillment once the service reports the task cancelled, so the order cancels", async () => {
        const { order, task } = await bookedOrder()
        // The merchant cancels the task in the service's app; its webhook rings.
        simulator.cancelTask(Number(task.task_id))
        const cancelled = await waitForTask(getContainer(), order.id, (t) => t.tracking_state === "cancelled")
        expect(cancelled.status).toBe("booked")
        const [fulfillment] = await orderFulfillments(order.id)
        expect(fulfillment.canceled_at).not.toBeNull()
        expect(fulfillment.data).toMatchObject({ cancelled: "service" })

        expect((await admin.post(`/admin/orders/${order.id}/cancel`)).status).toBe(200)
        const [view] = await widgetTasks(order.id)
        expect(view.cancellation).toMatchObject({ by: "service" })
        expect(view.cancel_at_service).toBe(false)
      })

      it("lets the merchant cancel anyway, reading the task again and recording who did", async () => {
        const { order, task } = await bookedOrder()
        const refused = await admin.post(`/admin/lastmile/tasks/${task.id}/cancel`, {})
        expect(refused.status).toBe(400)
        const lookups = simulator.requests("lookupDelivery").length

        const response = await admin.post<{ cancelled: { by: string }; task: TaskView }>(
          `/admin/lastmile/tasks/${task.id}/cancel`,
          { confirm: true }
        )
        expect(response.status).toBe(200)
        expect(simulator.requests("lookupDelivery").length).toBeGreaterThan(lookups)
        expect(response.data.cancelled).toMatchObject({ by: "merchant" })
        expect(response.data.task.cancellation).toMatchObject({
          by: "merchant",
          actor_id: expect.stringMatching(/^user_/),
          service_status: "NOT_STARTED",
        })
        expect((await orderFulfillments(order.id))[0].canceled_at).not.toBeNull()
        expect((await admin.post(`/admin/orders/${order.id}/cancel`)).status).toBe(200)
        // The task at the service is untouched: it has no cancel operation.
        expect(simulator.tasks().find((t) => String(t.taskId) === task.task_id)?.status.value).toBe("NOT_STARTED")
      })

      it("never books a cancelled order: not the retry job, not a late order.placed", async () => {
        const order = await orderWith(shop, seed, seed.options.nextDay, () =>
          simulator.addFault({ operation: "*", kind: "status", status: 503 })
        )
        expect((await waitForTask(getContainer(), order.id)).status).toBe("failed")

        // Never booked: it cancels as today.
        expect((await admin.post(`/admin/orders/${order.id}/cancel`)).status).toBe(200)
        await waitForTask(getContainer(), order.id, (t) => t.status === "cancelled")
        simulator.clearFaults()
        simulator.clearRequests()
        const outcomes = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 60 * 60_000) })
        expect(outcomes[order.id]).toBeUndefined()
        await getContainer()
          .resolve("event_bus")
          .emit([{ name: "order.placed", data: { id: order.id } }])
        await new Promise((resolve) => setTimeout(resolve, 1000))
        expect(simulator.requests("bookDelivery")).toHaveLength(0)
        const [row] = await lastmileTasks(getContainer()).listLastmileTasks({ merchant_order_id: order.id })
        expect(row.status).toBe("cancelled")
      })
    })
  },
})
