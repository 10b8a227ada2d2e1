/**
 * Every delivery a merchant starts on a lastmile order, through the admin API with the dashboard's bodies, against the
 * simulator's strict profile; the app books at fulfillment (`booking_trigger: "fulfillment"`, decision 15).
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { type SeededStore, TEE_SKU } from "../helpers/seed-store"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { type Admin, adminFor } from "../helpers/admin"
import { lastmileTasks, orderFulfillments, orderWith, waitForTask } from "../helpers/orders"
import { useSimulator } from "../helpers/simulator"
import type { Storefront } from "../helpers/storefront"

jest.setTimeout(120_000)

const { simulator } = useSimulator(
  { profile: "strict", locations: londonTestLocations() },
  { LASTMILE_BOOKING_TRIGGER: "fulfillment", LASTMILE_QUOTE_BUDGET_MS: "2000" }
)

interface OrderItem {
  id: string
  variant_id: string
  quantity: number
  detail?: { fulfilled_quantity?: number }
}

interface TaskView {
  id: string
  kind: string
  origin: string
  label: string
  name: string | null
  merchant_order_id: string
  status: string
  task_id: string | null
  tracking_id: string | null
  last_error: string | null
  notice: { kind: string; message: string; added?: { title: string; quantity: number }[] } | null
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront
    let admin: Admin
    const emitted: { name: string; data: Record<string, unknown> }[] = []

    const london = useLondonStore(simulator, { api, getContainer })
    beforeAll(async () => {
      ;({ seed, shop } = london)
      admin = await adminFor(api, getContainer())
      getContainer()
        .resolve(Modules.EVENT_BUS)
        .subscribe(
          "lastmile.delivery.edited_after_booking",
          async (event) => {
            emitted.push({ name: "edited", data: event.data as Record<string, unknown> })
          },
          { subscriberId: "merchant-deliveries-spec" }
        )
    })
    beforeEach(() => {
      simulator.useProfile("strict")
    })

    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const itemsOf = async (orderId: string): Promise<OrderItem[]> => {
      const { data } = await query().graph({
        entity: "order",
        fields: ["items.*", "items.detail.fulfilled_quantity"],
        filters: { id: orderId },
      })
      return data[0].items as unknown as OrderItem[]
    }
    const fulfillmentsOf = (orderId: string) => orderFulfillments(getContainer(), orderId)
    const bookingsOf = (merchantOrderId: string) =>
      simulator
        .requests("bookDelivery")
        .filter((r) => (r.body as { order?: { merchantOrderId?: string } })?.order?.merchantOrderId === merchantOrderId)
    const tasksAtService = (merchantOrderId: string) =>
      simulator.tasks().filter((t) => t.merchantOrderId === merchantOrderId)
    const widgetTasks = async (orderId: string) => {
      const response = await admin.get<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${orderId}`)
      expect(response.status).toBe(200)
      return response.data.tasks
    }
    /** The dashboard's Create fulfillment: the option's location, the option, the unfulfilled items of its profile. */
    const fulfil = (orderId: string, optionId: string, locationId: string, items: { id: string; quantity: number }[]) =>
      admin.fulfil(orderId, { optionId, locationId, items })
    const unfulfilled = async (orderId: string, only?: string[]) =>
      (await itemsOf(orderId))
        .filter((i) => !only || only.includes(i.id))
        .map((i) => ({ id: i.id, quantity: i.quantity - (i.detail?.fulfilled_quantity ?? 0) }))
        .filter((i) => i.quantity > 0)

    it("books the order when the merchant fulfils it from the dashboard, and shows it in the widget", async () => {
      const order = await orderWith(shop, seed, seed.options.nextDay)
      await new Promise((resolve) => setTimeout(resolve, 500))
      // Booking at fulfillment: nothing is booked at placement.
      expect(bookingsOf(order.id)).toHaveLength(0)

      const response = await fulfil(order.id, seed.options.nextDay, seed.warehouseId, await unfulfilled(order.id))
      expect(response.status).toBe(200)

      const task = await waitForTask(getContainer(), order.id)
      expect(task).toMatchObject({ status: "booked", attempts: 1 })
      expect(bookingsOf(order.id)).toHaveLength(1)
      expect(bookingsOf(order.id)[0].body).toMatchObject({
        order: { merchantOrderId: order.id, merchantOrderName: `#${order.display_id}` },
        // The dispatch address comes from the fulfillment's location, found by the plugin itself.
        collection: { address: { line1: "Unit 7, Abbey Road", postcode: "NW10 7SJ" } },
        customer: { phoneNumber: "+447911123456" },
      })
      const [fulfillment] = await fulfillmentsOf(order.id)
      expect(fulfillment.labels).toEqual([expect.objectContaining({ tracking_number: task.tracking_id })])
      // The fulfillment's data is public: tracking and the rate, never the phone or internal ids.
      expect(fulfillment.data).toMatchObject({ provider: "lastmile", kind: "delivery", trackingId: task.tracking_id })
      expect(JSON.stringify(fulfillment.data)).not.toMatch(/\+447911|stockLocationId|optionId|quotedAmount/)
      expect(await widgetTasks(order.id)).toEqual([
        expect.objectContaining({ label: "Delivery", status: "booked", task_id: task.task_id }),
      ])
    })

    it("refuses a fulfil with the reason the merchant can act on, books nothing and leaves no fulfillment", async () => {
      const order = await orderWith(shop, seed, seed.options.collection["store-camden"])
      simulator.location("store-camden").stock[TEE_SKU] = 0
      const camden = seed.storeLocations["store-camden"]
      const response = await fulfil(
        order.id,
        seed.options.collection["store-camden"],
        camden,
        await unfulfilled(order.id)
      )

      expect(response.status).toBe(400)
      expect(response.data.message).toContain("collection rate of store store-camden is no longer offered")
      expect(bookingsOf(order.id)).toHaveLength(0)
      expect((await fulfillmentsOf(order.id)).filter((f) => !f.canceled_at)).toEqual([])
      const [view] = await widgetTasks(order.id)
      expect(view).toMatchObject({ status: "needs_attention" })
      expect(view.last_error).toContain("store-camden")
    })

    it("refuses the lastmile return option as a way to fulfil, with a reason", async () => {
      const order = await orderWith(shop, seed, seed.options.nextDay)
      const response = await fulfil(order.id, seed.options.returns, seed.warehouseId, await unfulfilled(order.id))
      expect(response.status).toBe(400)
      expect(response.data.message).toContain("return option books returns")
      expect(simulator.requests("bookDelivery")).toHaveLength(0)
    })

    it("books once when two fulfils of the same order race: one task, one live fulfillment", async () => {
      const order = await orderWith(shop, seed, seed.options.nextDay)
      simulator.addFault({ operation: "bookDelivery", kind: "latency", latencyMs: 400 })
      const items = await unfulfilled(order.id)
      const answers = await Promise.all([
        fulfil(order.id, seed.options.nextDay, seed.warehouseId, items),
        fulfil(order.id, seed.options.nextDay, seed.warehouseId, items),
      ])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400])
      expect(answers.every((a) => a.status < 500)).toBe(true)
      expect(tasksAtService(order.id)).toHaveLength(1)
      expect((await fulfillmentsOf(order.id)).filter((f) => !f.canceled_at)).toHaveLength(1)
      expect((await widgetTasks(order.id)).filter((t) => t.kind === "delivery")).toHaveLength(1)
    })

    describe("an exchange", () => {
      it("prices the replacement from a quote, books its return, and books the replacement as its own delivery", async () => {
        const order = await orderWith(shop, seed, seed.options.nextDay)
        expect(
          (await fulfil(order.id, seed.options.nextDay, seed.warehouseId, await unfulfilled(order.id))).status
        ).toBe(200)
        const original = await waitForTask(getContainer(), order.id)
        const [tee] = await itemsOf(order.id)

        // The dashboard's exchange: create, inbound item and its return option, outbound item and its delivery option.
        const { exchange } = await admin.ok<{ exchange: { id: string } }>("/admin/exchanges", { order_id: order.id })
        const inbound = await admin.ok<{ return: { id: string } }>(`/admin/exchanges/${exchange.id}/inbound/items`, {
          items: [{ id: tee.id, quantity: 1 }],
        })
        await admin.ok(`/admin/exchanges/${exchange.id}/inbound/shipping-method`, {
          shipping_option_id: seed.options.returns,
        })
        await admin.ok(`/admin/exchanges/${exchange.id}/outbound/items`, {
          items: [{ variant_id: seed.variants.mug, quantity: 1 }],
        })
        const priced = await admin.post<{ order_preview: { shipping_methods: { amount: number }[] } }>(
          `/admin/exchanges/${exchange.id}/outbound/shipping-method`,
          { shipping_option_id: seed.options.nextDay }
        )
        // Priced by a quote for the order's address and the replacement's items, never a 500.
        expect(priced.status).toBe(200)
        const replacementQuote = simulator
          .requests("quote")
          .find((r) => (r.body as { order: { merchantOrderId: string } }).order.merchantOrderId === exchange.id)
        expect(replacementQuote?.body).toMatchObject({
          delivery: { address: { line1: "10 Downing Street", postcode: "SW1A 2AA" } },
          order: { lineItems: [{ merchantProductId: "DEMO-MUG", quantity: 1 }] },
        })
        await admin.ok(`/admin/exchanges/${exchange.id}/request`, { no_notification: false })

        // The inbound items: a return, keyed on the return's id, from the customer to the return location.
        const returnTask = await waitForTask(getContainer(), inbound.return.id)
        expect(returnTask.status).toBe("booked")
        const returnBooking = simulator.requests("bookReturn")[0]
        expect(returnBooking.body).toMatchObject({
          order: { merchantOrderId: inbound.return.id, lineItems: [{ merchantProductId: "DEMO-TEE", quantity: 1 }] },
          collection: { address: { line1: "10 Downing Street" } },
          delivery: { address: { line1: "Unit 7, Abbey Road" } },
        })

        // The merchant fulfils the replacement: booked under the exchange's own reference.
        const mug = (await itemsOf(order.id)).find((i) => i.variant_id === seed.variants.mug)!
        const response = await fulfil(
          order.id,
          seed.options.nextDay,
          seed.warehouseId,
          await unfulfilled(order.id, [mug.id])
        )
        expect(response.status).toBe(200)
        const replacement = await waitForTask(getContainer(), exchange.id)
        expect(replacement).toMatchObject({ status: "booked" })
        expect(bookingsOf(exchange.id)[0].body).toMatchObject({
          order: {
            merchantOrderName: `Replacement for #${order.display_id}`,
            lineItems: [{ merchantProductId: "DEMO-MUG" }],
          },
        })
        expect(tasksAtService(order.id)).toHaveLength(1)
        expect(tasksAtService(exchange.id)).toHaveLength(1)
        expect(original.task_id).not.toBe(replacement.task_id)

        const views = await widgetTasks(order.id)
        expect(views.map((v) => [v.label, v.status])).toEqual([
          ["Delivery", "booked"],
          ["Return", "booked"],
          ["Replacement (exchange)", "booked"],
        ])
      })

      it("books a replacement whose booking answer is lost exactly once, found again by its lookup", async () => {
        const order = await orderWith(shop, seed, seed.options.nextDay)
        expect(
          (await fulfil(order.id, seed.options.nextDay, seed.warehouseId, await unfulfilled(order.id))).status
        ).toBe(200)
        const [tee] = await itemsOf(order.id)
        const exchange = await admin.replacement(
          "exchange",
          { id: order.id, itemId: tee.id },
          { variantId: seed.variants.mug, optionId: seed.options.nextDay }
        )

        simulator.addFault({ operation: "bookDelivery", kind: "dropAfterCommit", times: 1 })
        const mug = (await itemsOf(order.id)).find((i) => i.variant_id === seed.variants.mug)!
        const response = await fulfil(
          order.id,
          seed.options.nextDay,
          seed.warehouseId,
          await unfulfilled(order.id, [mug.id])
        )
        expect(response.status).toBe(200)
        const replacement = await waitForTask(getContainer(), exchange.id)
        expect(replacement).toMatchObject({ status: "booked", adopted: true })
        expect(tasksAtService(exchange.id)).toHaveLength(1)
      })
    })

    it("refuses a claim's replacement nothing can deliver with a 400 and the reason, unless the merchant sets its price", async () => {
      const order = await orderWith(shop, seed, seed.options.nextDay)
      expect((await fulfil(order.id, seed.options.nextDay, seed.warehouseId, await unfulfilled(order.id))).status).toBe(
        200
      )
      const [tee] = await itemsOf(order.id)
      const { claim } = await admin.ok<{ claim: { id: string } }>("/admin/claims", {
        order_id: order.id,
        type: "replace",
      })
      await admin.ok(`/admin/claims/${claim.id}/inbound/items`, { items: [{ id: tee.id, quantity: 1 }] })
      await admin.ok(`/admin/claims/${claim.id}/outbound/items`, {
        items: [{ variant_id: seed.variants.mug, quantity: 1 }],
      })
      // The service cannot serve the route: the merchant is told why.
      simulator.configure({ unservedPostcodePrefixes: ["SW1A"] })
      const refused = await admin.post<{ message: string }>(`/admin/claims/${claim.id}/outbound/shipping-method`, {
        shipping_option_id: seed.options.nextDay,
      })
      expect(refused.status).toBe(400)
      expect(refused.data.message).toContain("cannot be priced")
      expect(refused.data.message).toContain("does not deliver to this address")
      // A price the merchant sets stands, quote or not.
      const custom = await admin.post<{ order_preview: { shipping_methods: { amount: number }[] } }>(
        `/admin/claims/${claim.id}/outbound/shipping-method`,
        { shipping_option_id: seed.options.nextDay, custom_amount: 0 }
      )
      expect(custom.status).toBe(200)
    })

    it("tells the merchant when an order is edited after booking, and books the added items as their own delivery", async () => {
      const order = await orderWith(shop, seed, seed.options.nextDay)
      expect((await fulfil(order.id, seed.options.nextDay, seed.warehouseId, await unfulfilled(order.id))).status).toBe(
        200
      )
      const booked = await waitForTask(getContainer(), order.id)

      // The dashboard's edit: begin, add an item, request, confirm.
      await admin.ok("/admin/order-edits", { order_id: order.id })
      await admin.ok(`/admin/order-edits/${order.id}/items`, {
        items: [{ variant_id: seed.variants.mug, quantity: 1 }],
      })
      await admin.ok(`/admin/order-edits/${order.id}/request`, { no_notification: false })
      await admin.ok(`/admin/order-edits/${order.id}/confirm`)

      const noticed = await waitForTask(getContainer(), order.id, (t) => !!(t as unknown as TaskView).notice)
      const [view] = await widgetTasks(order.id)
      expect(view.notice).toMatchObject({
        kind: "order_edited",
        added: [{ title: expect.stringContaining("mug"), quantity: 1 }],
      })
      expect(view.notice!.message).toContain(`task ${booked.task_id}`)
      expect(noticed.status).toBe("booked")
      await waitFor(() => emitted.some((e) => e.data.order_id === order.id))
      expect(emitted.find((e) => e.data.order_id === order.id)!.data).toMatchObject({ task_id: booked.task_id })

      // The merchant ships the added item as its own lastmile delivery.
      const mug = (await itemsOf(order.id)).find((i) => i.variant_id === seed.variants.mug)!
      const response = await fulfil(
        order.id,
        seed.options.nextDay,
        seed.warehouseId,
        await unfulfilled(order.id, [mug.id])
      )
      expect(response.status).toBe(200)
      const parts = (await widgetTasks(order.id)).filter((t) => t.origin === "part")
      expect(parts).toEqual([expect.objectContaining({ status: "booked", label: "Further items" })])
      expect(parts[0].merchant_order_id).not.toBe(order.id)
      expect(tasksAtService(order.id)).toHaveLength(1)
      expect(tasksAtService(parts[0].merchant_order_id)).toHaveLength(1)
      const rows = await lastmileTasks(getContainer()).listLastmileTasks({ order_id: order.id, kind: "delivery" })
      expect(rows).toHaveLength(2)
    })
  },
})

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error("timed out")
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
