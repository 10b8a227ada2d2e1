import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow } from "@medusajs/framework/workflows-sdk"
import { createOrderFulfillmentWorkflow } from "@medusajs/medusa/core-flows"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { bookTask, retryDueBookings } from "../../src/workflows/book-task/run"
import { type BookTaskWorkflowInput, bookTaskWorkflow, bookingLockKey } from "../../src/workflows/book-task"
import { type SeededStore, TEE_SKU } from "../helpers/seed-store"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { createAdminHeaders } from "../helpers/admin-auth"
import {
  lastmileTasks,
  orderFulfillments,
  orderItems,
  orderWith as placeWith,
  requestReturn,
  waitForTask,
} from "../helpers/orders"
import { adminFor } from "../helpers/admin"
import { useSimulator } from "../helpers/simulator"
import { Storefront } from "../helpers/storefront"

jest.setTimeout(120_000)

/** A step that fails after the workflow it follows has done its work, so that work is compensated. */
const failAfter = createStep("test-lastmile-fail-after", async () => {
  throw new Error("a later step failed")
})
/** A host app's workflow that fulfils (the hook books) and then fails: Medusa rolls the fulfillment back. */
const fulfilThenFail = createWorkflow(
  "test-lastmile-fulfil-then-fail",
  (input: { order_id: string; items: { id: string; quantity: number }[] }) => {
    createOrderFulfillmentWorkflow.runAsStep({ input })
    failAfter()
  }
)
/** A host app's workflow that composes the booking workflow and then fails. */
const bookThenFail = createWorkflow("test-lastmile-book-then-fail", (input: BookTaskWorkflowInput) => {
  bookTaskWorkflow.runAsStep({ input })
  failAfter()
})

const { simulator } = useSimulator({ locations: londonTestLocations() }, { LASTMILE_QUOTE_BUDGET_MS: "1000" })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront

    const london = useLondonStore(simulator, { api, getContainer })
    beforeAll(() => {
      ;({ seed, shop } = london)
    })

    const tasks = () => lastmileTasks(getContainer())
    const settledTask = (orderId: string, settled = ["booked", "failed", "needs_attention"]) =>
      waitForTask(getContainer(), orderId, (task) => settled.includes(task.status))
    const orderWith = (optionId: string, beforeComplete?: () => void, data?: Record<string, unknown>) =>
      placeWith(shop, seed, optionId, beforeComplete, data)

    const fulfillmentsOf = (orderId: string) => orderFulfillments(getContainer(), orderId)
    /** What a confirmation page reads while it waits: where the booking stands, by the order id alone. */
    const bookingState = async (orderId: string) => {
      const answer = await shop.get<{ booking: { state: string; books_on: string } }>(
        `/store/lastmile/orders/${orderId}/booking`
      )
      expect(answer.status).toBe(200)
      return answer.data.booking
    }

    const bookings = (orderId: string) =>
      simulator
        .requests("bookDelivery")
        .filter((r) => (r.body as { order?: { merchantOrderId?: string } })?.order?.merchantOrderId === orderId)
    const serviceTasks = (orderId: string) => simulator.tasks().filter((t) => t.merchantOrderId === orderId)

    it("books a next-day order once, with the order's details, and puts the tracking on its fulfillment", async () => {
      const order = await orderWith(seed.options.nextDay)
      const task = await settledTask(order.id)

      expect(task).toMatchObject({ status: "booked", rate_code: "NEXT_DAY", attempts: 1, adopted: false })
      expect(bookings(order.id)).toHaveLength(1)
      expect(bookings(order.id)[0].body).toMatchObject({
        rateCode: "NEXT_DAY",
        deliveryType: "NEXT_DAY",
        order: { merchantOrderId: order.id, merchantOrderName: `#${order.display_id}` },
        customer: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phoneNumber: "+447911123456" },
        delivery: { address: { line1: "10 Downing Street", postcode: "SW1A 2AA", country: "United Kingdom" } },
        collection: { address: { line1: "Unit 7, Abbey Road", postcode: "NW10 7SJ" } },
      })
      expect(
        (bookings(order.id)[0].body as { collection: Record<string, unknown> }).collection.merchantLocationId
      ).toBeUndefined()
      // Re-quoted right before booking, never from the checkout cache.
      const quotes = simulator
        .requests("quote")
        .filter((r) => (r.body as { order: { merchantOrderId: string } }).order.merchantOrderId === order.id)
      expect(quotes).toHaveLength(1)

      const [fulfillment] = await fulfillmentsOf(order.id)
      expect(fulfillment.id).toBe(task.fulfillment_id)
      expect(fulfillment.labels).toEqual([
        expect.objectContaining({ tracking_number: task.tracking_id, tracking_url: task.tracking_url }),
      ])
      expect(task.tracking_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/track\//)
      expect(fulfillment.data).toMatchObject({ taskId: Number(task.task_id), rateCode: "NEXT_DAY" })
      expect(serviceTasks(order.id)).toHaveLength(1)
      expect(task.task_id).toBe(String(serviceTasks(order.id)[0].taskId))
      expect(task.tracking_id).toBe(serviceTasks(order.id)[0].trackingId)
    })

    it("shows the shopper's note to the courier to the merchant, and never sends it while send_delivery_note is off", async () => {
      const note = "Gate code 4821: leave it in the porch"
      const order = await orderWith(seed.options.nextDay, undefined, { delivery_note: note })
      const task = await settledTask(order.id)

      expect(task.status).toBe("booked")
      expect(bookings(order.id)).toHaveLength(1)
      expect(bookings(order.id)[0].body).not.toHaveProperty("order.note")
      const admin = await adminFor(api, getContainer())
      const view = await admin.get<{ delivery_note: unknown }>(`/admin/lastmile/orders/${order.id}`)
      expect(view.data.delivery_note).toEqual({ text: note, to_service: "not_sent", send_enabled: false })
      const [fulfillment] = await fulfillmentsOf(order.id)
      expect(JSON.stringify([fulfillment.data, fulfillment.labels])).not.toContain("4821")
    })

    it("books a store collection with the store's external id and address", async () => {
      const order = await orderWith(seed.options.collection["store-camden"])
      const task = await settledTask(order.id)

      expect(task).toMatchObject({ status: "booked", rate_code: "SVC_COL" })
      // The row says what it books, as the admin shows it.
      expect(await tasks().retrieveLastmileTask(task.id)).toMatchObject({
        delivery_type: "NEXT_DAY",
        merchant_location_id: "store-camden",
        name: `#${order.display_id}`,
      })
      expect(bookings(order.id)[0].body).toMatchObject({
        rateCode: "SVC_COL",
        collection: { merchantLocationId: "store-camden", address: { line1: "201 Camden High Street" } },
        order: { merchantOrderId: order.id, merchantOrderName: `#${order.display_id}` },
      })
    })

    it("adopts a booking whose answer was lost after the service committed it", async () => {
      simulator.addFault({ operation: "bookDelivery", kind: "dropAfterCommit", times: 1 })
      const order = await orderWith(seed.options.nextDay)
      const task = await settledTask(order.id)

      expect(task).toMatchObject({ status: "booked", adopted: true })
      expect(serviceTasks(order.id)).toHaveLength(1)
      expect(bookings(order.id)).toHaveLength(1)
      expect(Number(task.task_id)).toBe(serviceTasks(order.id)[0].taskId)
    })

    it("books once through two 5xx answers", async () => {
      simulator.addFault({ operation: "bookDelivery", kind: "status", status: 503, times: 2 })
      const order = await orderWith(seed.options.nextDay)
      const task = await settledTask(order.id)

      expect(task.status).toBe("booked")
      expect(bookings(order.id)).toHaveLength(3)
      expect(serviceTasks(order.id)).toHaveLength(1)
    })

    it("places the order while the service is down, records the failure, and the job books it once it is back", async () => {
      const order = await orderWith(seed.options.nextDay, () =>
        simulator.addFault({ operation: "*", kind: "status", status: 503 })
      )
      const failed = await settledTask(order.id)

      expect(failed).toMatchObject({ status: "failed", attempts: 1 })
      expect(failed.last_error).toContain("Lastmile booking failed")
      expect(failed.last_error).not.toContain("lm_test_key")
      expect(await fulfillmentsOf(order.id)).toEqual([])
      // The store API's order shows nothing of it; the storefront is told the booking is being retried, and no more.
      const told = await shop.get(`/store/lastmile/orders/${order.id}/booking`)
      expect(told.data).toEqual({
        order_id: order.id,
        booking: { state: "retrying", books_on: "order_placed", step: null },
      })

      simulator.clearFaults()
      const outcomes = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 10 * 60_000) })
      expect(outcomes[order.id]).toMatchObject({ status: "booked" })
      expect(await bookingState(order.id)).toMatchObject({ state: "booked" })
      expect(serviceTasks(order.id)).toHaveLength(1)
      expect(await fulfillmentsOf(order.id)).toHaveLength(1)

      // A second pass finds nothing to do.
      const again = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 20 * 60_000) })
      expect(again[order.id]).toBeUndefined()
    })

    it("stops retrying an order the merchant fulfilled with another option, and says why in the widget", async () => {
      const order = await orderWith(seed.options.nextDay, () =>
        simulator.addFault({ operation: "*", kind: "status", status: 503 })
      )
      expect(await settledTask(order.id)).toMatchObject({ status: "failed" })
      simulator.clearFaults()
      // The merchant ships it by hand: the dashboard's Create fulfillment with the manual option.
      const admin = await adminFor(api, getContainer())
      const fulfilled = await admin.fulfil(order.id, {
        optionId: seed.options.manual,
        locationId: seed.warehouseId,
        items: await orderItems(getContainer(), order.id),
      })
      expect(fulfilled.status).toBe(200)

      const outcomes = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 10 * 60_000) })
      expect(outcomes[order.id]).toEqual({ status: "nothing_to_book" })
      const widget = await admin.get<{ tasks: unknown[] }>(`/admin/lastmile/orders/${order.id}`)
      expect(widget.data.tasks).toEqual([
        expect.objectContaining({
          status: "needs_attention",
          last_error: expect.stringContaining("fulfilled without lastmile"),
        }),
      ])
      expect(serviceTasks(order.id)).toEqual([])
      // The job does not read the order again every minute.
      const later = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 60 * 60_000) })
      expect(later[order.id]).toBeUndefined()
    })

    it("passes over a delivery another run is booking, without waiting for its lock, and books the rest", async () => {
      const down = () => simulator.addFault({ operation: "*", kind: "status", status: 503 })
      const held = await orderWith(seed.options.nextDay, down)
      await settledTask(held.id)
      simulator.clearFaults()
      const free = await orderWith(seed.options.nextDay, down)
      await settledTask(free.id)
      simulator.clearFaults()
      const locking = getContainer().resolve(Modules.LOCKING)
      // Another run (a subscriber, another instance) holds the held order's delivery lock.
      await locking.acquire(bookingLockKey(held.id), { ownerId: "another-run", expire: 120 })
      try {
        const started = Date.now()
        const outcomes = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 10 * 60_000) })
        // Medusa runs one scheduled job at a time: a pass that waited out the lock (60 s) would hold up every job.
        expect(Date.now() - started).toBeLessThan(30_000)
        expect(outcomes[held.id]).toMatchObject({ status: "busy" })
        expect(outcomes[free.id]).toMatchObject({ status: "booked" })
      } finally {
        await locking.release(bookingLockKey(held.id), { ownerId: "another-run" })
      }
      // Had the other run stopped, the next pass books it.
      const next = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 20 * 60_000) })
      expect(next[held.id]).toMatchObject({ status: "booked" })
      expect(serviceTasks(held.id)).toHaveLength(1)
    })

    it("books once when the same order.placed event arrives 5 times at once", async () => {
      simulator.addFault({ operation: "bookDelivery", kind: "latency", latencyMs: 300 })
      const order = await orderWith(seed.options.nextDay)
      const eventBus = getContainer().resolve(Modules.EVENT_BUS)
      await eventBus.emit(Array.from({ length: 5 }, () => ({ name: "order.placed", data: { id: order.id } })))
      await settledTask(order.id)
      // Let every delivery of the event finish.
      await new Promise((resolve) => setTimeout(resolve, 1500))

      expect(bookings(order.id)).toHaveLength(1)
      expect(serviceTasks(order.id)).toHaveLength(1)
      expect((await fulfillmentsOf(order.id)).filter((f) => !f.canceled_at)).toHaveLength(1)
    })

    it("reconciles a booking interrupted between the service's commit and our record, without a duplicate", async () => {
      // The service commits, the answer is lost and so is the lookup: the outcome is unknown.
      simulator.addFault({ operation: "bookDelivery", kind: "dropAfterCommit", times: 1 })
      simulator.addFault({ operation: "lookupDelivery", kind: "status", status: 503 })
      const order = await orderWith(seed.options.nextDay)
      const unknown = await settledTask(order.id)
      expect(unknown.status).toBe("failed")
      expect(serviceTasks(order.id)).toHaveLength(1)

      // As if the process had stopped mid-booking: the row still says "booking".
      await tasks().updateLastmileTasks({ id: unknown.id, status: "booking" })
      simulator.clearFaults()
      const outcomes = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 10 * 60_000) })

      expect(outcomes[order.id]).toMatchObject({ status: "booked", adopted: true })
      expect(serviceTasks(order.id)).toHaveLength(1)
      expect(bookings(order.id)).toHaveLength(1)
      expect(await fulfillmentsOf(order.id)).toHaveLength(1)
    })

    it("books the fulfillment a process stopped inside, once: adopted from the service, never a second fulfillment", async () => {
      const order = await orderWith(seed.options.nextDay)
      const booked = await settledTask(order.id)
      expect(booked.status).toBe("booked")
      // As if the worker had died inside Medusa's fulfillment workflow after the service accepted the booking:
      // the fulfillment holds only the provider's placeholder and the row still says "booking".
      const [fulfillment] = await fulfillmentsOf(order.id)
      // Written as the provider left it (Medusa's update merges data, so the row is rewritten whole).
      const knex = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      await knex("fulfillment")
        .where({ id: fulfillment.id })
        .update({ data: JSON.stringify({ provider: "lastmile", status: "pending_booking" }) })
      await knex("fulfillment_label").where({ fulfillment_id: fulfillment.id }).delete()
      await tasks().updateLastmileTasks({
        id: booked.id,
        status: "booking",
        task_id: null,
        tracking_id: null,
        tracking_url: null,
        fulfillment_id: null,
      })
      simulator.clearRequests()

      const outcomes = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 10 * 60_000) })

      expect(outcomes[order.id]).toMatchObject({ status: "booked", adopted: true, task_id: booked.task_id })
      expect(bookings(order.id)).toHaveLength(0)
      expect(serviceTasks(order.id)).toHaveLength(1)
      const after = await fulfillmentsOf(order.id)
      expect(after.filter((f) => !(f as { canceled_at?: string }).canceled_at)).toHaveLength(1)
      expect(after[0]).toMatchObject({ id: fulfillment.id, data: { taskId: Number(booked.task_id) } })
      expect(after[0].labels.map((l) => l.tracking_number)).toEqual([booked.tracking_id])
      const [row] = await tasks().listLastmileTasks({ merchant_order_id: order.id })
      expect(row).toMatchObject({ status: "booked", adopted: true, fulfillment_id: fulfillment.id })
    })

    it("reconciles an order whose task record is missing, but leaves a just-placed order to its subscriber", async () => {
      const order = await orderWith(seed.options.nextDay)
      const booked = await settledTask(order.id)
      expect(booked.status).toBe("booked")
      // As if order.placed had never been handled: no task row.
      await tasks().deleteLastmileTasks(booked.id)
      simulator.clearRequests()

      const fresh = await retryDueBookings(getContainer())
      expect(fresh[order.id]).toBeUndefined()

      const later = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 10 * 60_000) })
      expect(later[order.id]).toEqual({ status: "already_booked" })
      const [restored] = await tasks().listLastmileTasks({ merchant_order_id: order.id })
      expect(restored).toMatchObject({
        status: "booked",
        task_id: booked.task_id,
        fulfillment_id: booked.fulfillment_id,
      })
      expect(bookings(order.id)).toHaveLength(0)
      expect(serviceTasks(order.id)).toHaveLength(1)
    })

    it("leaves the task needing attention, and books nothing, when the rate is gone at booking", async () => {
      const order = await orderWith(seed.options.collection["store-camden"], () => {
        simulator.location("store-camden").stock[TEE_SKU] = 0
      })
      const task = await settledTask(order.id)

      expect(task.status).toBe("needs_attention")
      expect(task.last_error).toContain("collection rate of store store-camden is no longer offered")
      expect(bookings(order.id)).toHaveLength(0)
      expect(await fulfillmentsOf(order.id)).toEqual([])
      // The confirmation can stop waiting and say the shop must look at it; the merchant's reason stays theirs.
      // A collection not ready (not even booked): its collection is null, said so rather than left out.
      expect(await bookingState(order.id)).toEqual({
        state: "needs_attention",
        books_on: "order_placed",
        step: null,
        collection: null,
      })
      expect((await shop.get("/store/lastmile/orders/order_missing/booking")).status).toBe(404)

      // The merchant's retry books inside a new fulfillment, whose hook refuses: the run that booked says why.
      const retried = await bookTask(
        getContainer(),
        { kind: "order", order_id: order.id },
        { retry_needs_attention: true }
      )
      expect(retried).toEqual({
        status: "needs_attention",
        reason: expect.stringContaining("collection rate of store store-camden is no longer offered"),
      })
      expect(await fulfillmentsOf(order.id)).toEqual([])
    })

    it("answers a run that creates the fulfillment with what the booking inside it came to, as data", async () => {
      const order = await orderWith(seed.options.nextDay, () =>
        simulator.addFault({ operation: "*", kind: "status", status: 503 })
      )
      expect(await settledTask(order.id)).toMatchObject({ status: "failed" })
      simulator.clearFaults()

      const { result } = await bookTaskWorkflow(getContainer()).run({
        input: { target: { kind: "order", order_id: order.id }, retry_needs_attention: true },
      })
      const [row] = await tasks().listLastmileTasks({ merchant_order_id: order.id })
      expect(row).toMatchObject({ status: "booked", task_id: expect.any(String) })
      expect(result).toEqual({ status: "booked", task_row_id: row.id, task_id: row.task_id, adopted: false })
      expect(bookings(order.id)).toHaveLength(1)
    })

    it("refuses a second lastmile fulfillment for the same order", async () => {
      const order = await orderWith(seed.options.nextDay)
      await settledTask(order.id)
      const admin = await adminFor(api, getContainer())
      const response = await admin.fulfil(order.id, {
        optionId: seed.options.nextDay,
        locationId: seed.warehouseId,
        items: await orderItems(getContainer(), order.id),
      })
      // Medusa refuses it itself (the items are fulfilled, their reservation gone): a 400 with its reason.
      expect(response.status).toBe(400)
      expect(response.data.message).toEqual(expect.any(String))
      expect(bookings(order.id)).toHaveLength(1)
    })

    it("refuses to cancel a booked fulfillment, because the service cannot cancel", async () => {
      const order = await orderWith(seed.options.nextDay)
      const task = await settledTask(order.id)
      const admin = await createAdminHeaders(getContainer(), "cancel@lastmile.test")
      const response = await api.post(
        `/admin/orders/${order.id}/fulfillments/${task.fulfillment_id}/cancel`,
        {},
        { ...admin, validateStatus: () => true }
      )
      expect(response.status).toBe(400)
      expect(response.data.message).toContain("has no cancel operation")
    })

    it("books a return once, from the customer's address to the return location", async () => {
      const order = await orderWith(seed.options.nextDay)
      await settledTask(order.id)
      const returnId = await requestReturn(api, getContainer(), seed, order.id, "returns@lastmile.test")
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)

      const task = await settledTask(returnId)
      expect(task.status).toBe("booked")
      const returnBookings = simulator.requests("bookReturn")
      expect(returnBookings).toHaveLength(1)
      expect(returnBookings[0].body).toMatchObject({
        order: { merchantOrderId: returnId, merchantOrderName: `#${order.display_id} return` },
        collection: { address: { line1: "10 Downing Street", postcode: "SW1A 2AA" } },
        delivery: { address: { line1: "Unit 7, Abbey Road", postcode: "NW10 7SJ" } },
        customer: { email: "ada@example.com", phoneNumber: "+447911123456" },
      })
      const { data: returns } = await query.graph({
        entity: "return",
        fields: ["fulfillments.labels.*", "fulfillments.data"],
        filters: { id: returnId },
      })
      expect(returns[0].fulfillments?.[0]?.labels).toEqual([
        expect.objectContaining({ tracking_number: task.tracking_id, tracking_url: task.tracking_url }),
      ])
      expect(simulator.tasks().filter((t) => t.taskType === "RETURN")).toHaveLength(1)
    })

    it("finishes a return whose row was left booking after its fulfillment got the booking, posting nothing again", async () => {
      const order = await orderWith(seed.options.nextDay)
      await settledTask(order.id)
      const returnId = await requestReturn(api, getContainer(), seed, order.id, "returns-stopped@lastmile.test")
      const booked = await settledTask(returnId)
      expect(booked.status).toBe("booked")
      // As if the process had stopped between the fulfillment's write and the row's: the row knows the task only.
      await tasks().updateLastmileTasks({ id: booked.id, status: "booking" })
      simulator.clearRequests()

      const outcomes = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 10 * 60_000) })

      expect(outcomes[returnId]).toEqual({ status: "already_booked" })
      expect(await tasks().retrieveLastmileTask(booked.id)).toMatchObject({ status: "booked", task_id: booked.task_id })
      expect(simulator.requests("bookReturn")).toHaveLength(0)
    })

    it("when Medusa rolls back a fulfillment after its booking, the task waits to be adopted, and nothing is booked twice", async () => {
      const order = await orderWith(seed.options.nextDay, () =>
        simulator.addFault({ operation: "*", kind: "status", status: 503 })
      )
      expect(await settledTask(order.id)).toMatchObject({ status: "failed" })
      simulator.clearFaults()
      simulator.clearRequests()
      const fulfillments = () =>
        getContainer()
          .resolve(Modules.FULFILLMENT)
          .listFulfillments({}, { select: ["id", "canceled_at"] })
      const existing = new Set((await fulfillments()).map((f) => f.id))

      const { errors } = await fulfilThenFail(getContainer()).run({
        input: { order_id: order.id, items: await orderItems(getContainer(), order.id) },
        throwOnError: false,
      })

      // Only the failing step's error: Medusa's own compensation (cancelling the fulfillment) was not refused.
      expect(errors.map((e) => e.error?.message)).toEqual(["a later step failed"])
      const made = (await fulfillments()).filter((f) => !existing.has(f.id))
      expect(made).toHaveLength(1)
      expect(made[0].canceled_at).not.toBeNull()
      expect(bookings(order.id)).toHaveLength(1)
      const [undone] = await tasks().listLastmileTasks({ merchant_order_id: order.id })
      expect(undone).toMatchObject({ status: "failed", fulfillment_id: null })
      expect(undone.last_error).toContain(`after the service booked task ${undone.task_id}`)
      expect((await fulfillmentsOf(order.id)).filter((f) => !f.canceled_at)).toEqual([])

      const outcomes = await retryDueBookings(getContainer(), { now: new Date(Date.now() + 60 * 60_000) })
      expect(outcomes[order.id]).toMatchObject({ status: "booked", adopted: true, task_id: undone.task_id })
      expect(bookings(order.id)).toHaveLength(1)
      expect(serviceTasks(order.id)).toHaveLength(1)
      const live = (await fulfillmentsOf(order.id)).filter((f) => !f.canceled_at)
      expect(live).toHaveLength(1)
      expect(live[0].data).toMatchObject({ taskId: Number(undone.task_id) })
    })

    it("undoes exactly what the booking recorded when a step after it fails: a return that reached the service waits for the merchant, whose retry adopts it", async () => {
      const order = await orderWith(seed.options.nextDay)
      await settledTask(order.id)
      simulator.addFault({ operation: "bookReturn", kind: "status", status: 503 })
      const returnId = await requestReturn(api, getContainer(), seed, order.id, "returns-undone@lastmile.test")
      // A 5xx may have been processed: never posted again blindly, so the merchant decides.
      expect(await settledTask(returnId)).toMatchObject({ status: "needs_attention", task_id: null })
      simulator.clearFaults()
      simulator.clearRequests()

      const { errors } = await bookThenFail(getContainer()).run({
        input: { target: { kind: "return", return_id: returnId }, retry_needs_attention: true },
        throwOnError: false,
      })

      expect(errors[0]?.error?.message).toBe("a later step failed")
      expect(simulator.requests("bookReturn")).toHaveLength(1)
      const [row] = await tasks().listLastmileTasks({ merchant_order_id: returnId })
      // The record is undone (no task, its fulfillment without the booking); the service's task is not, so never posted again blindly.
      expect(row).toMatchObject({ status: "needs_attention", task_id: null, tracking_id: null })
      expect(row.last_error).toContain("The return may have reached the service")
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const fulfillmentOf = async () =>
        (await query.graph({ entity: "return", fields: ["fulfillments.data"], filters: { id: returnId } })).data[0]
          .fulfillments?.[0]?.data as Record<string, unknown>
      expect(await fulfillmentOf()).toMatchObject({ provider: "lastmile", status: "pending_booking", taskId: null })
      expect(await retryDueBookings(getContainer(), { now: new Date(Date.now() + 60 * 60_000) })).not.toHaveProperty(
        returnId
      )

      const admin = await adminFor(api, getContainer())
      const retried = await admin.post<{ outcome: { status: string; adopted: boolean } }>(
        `/admin/lastmile/tasks/${row.id}/retry`
      )
      expect(retried.status).toBe(200)
      expect(retried.data.outcome).toMatchObject({ status: "booked", adopted: true })
      expect(simulator.requests("bookReturn")).toHaveLength(1)
      expect(simulator.tasks().filter((t) => t.merchantOrderId === returnId)).toHaveLength(1)
      expect(await fulfillmentOf()).toMatchObject({ taskId: expect.any(Number) })
    })
  },
})
