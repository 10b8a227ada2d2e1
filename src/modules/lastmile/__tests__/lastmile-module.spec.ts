/**
 * The lastmile module against real PostgreSQL (Medusa's module test runner): a task row's life as the booking
 * workflow drives it, and the webhook events' one-statement record.
 */
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import type { LastmileModuleService } from "../service"
import { ATTEMPT_INTERRUPTED } from "../../../lib/booking/booking-outcome"
import { LASTMILE_MODULE } from ".."

jest.setTimeout(60_000)

const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn(), debug: jest.fn() }

moduleIntegrationTestRunner<LastmileModuleService>({
  moduleName: LASTMILE_MODULE,
  resolve: `${__dirname}/..`,
  injectedDependencies: { logger },
  testSuite: ({ service }) => {
    const delivery = (reference = "order_1") =>
      service.tasks.findOrCreate({
        kind: "delivery",
        origin: "order",
        order_id: "order_1",
        merchant_order_id: reference,
      })

    it("keeps one row per reference, and counts each attempt on it", async () => {
      const first = await delivery()
      const again = await delivery()
      expect(again.id).toBe(first.id)
      expect(first).toMatchObject({ status: "pending", attempts: 0 })

      expect(await service.tasks.startAttempt(first, { name: "#1001" })).toBe(1)
      expect(await service.retrieveLastmileTask(first.id)).toMatchObject({
        status: "booking",
        attempts: 1,
        name: "#1001",
      })
      await expect(
        service.createLastmileTasks({ kind: "delivery", order_id: "order_1", merchant_order_id: "order_1" })
      ).rejects.toThrow()
    })

    it("records a booking with the rate it promised, where it stands and when its order was placed", async () => {
      const task = await delivery()
      await service.tasks.startAttempt(task)
      const placed = new Date("2026-11-20T10:00:00.000Z")
      await service.tasks.recordBooked(await service.retrieveLastmileTask(task.id), "ful_1", {
        task_id: "1001",
        tracking_id: "LM1001",
        tracking_url: "https://track.example/LM1001",
        rate_code: "NEXT_DAY_ECO",
        service_status: "NOT_STARTED",
        adopted: false,
        quoted_rate: {
          rate_code: "NEXT_DAY_ECO",
          name: "Next day eco",
          amount: 3.95,
          currency_code: "gbp",
          window: { from: "2026-11-21T08:00:00.000Z", to: "2026-11-21T12:00:00.000Z" },
          co2_savings: 1.2,
          quoted_at: "2026-11-20T10:00:01.000Z",
        },
        mode: "delivery",
        shipping_option_id: "so_1",
        stock_location_id: "sloc_1",
        placed_at: placed.toISOString(),
      })
      const booked = await service.retrieveLastmileTask(task.id)
      expect(booked).toMatchObject({
        status: "booked",
        fulfillment_id: "ful_1",
        task_id: "1001",
        mode: "delivery",
        stock_location_id: "sloc_1",
        quoted_rate: { amount: 3.95, window: { from: "2026-11-21T08:00:00.000Z" }, co2_savings: 1.2 },
        last_error: null,
      })
      expect(new Date(booked.placed_at!).toISOString()).toBe(placed.toISOString())
      expect(booked.booked_at).not.toBeNull()
      expect((booked.status_history as { entries: { value: string }[] }).entries.at(-1)).toMatchObject({
        value: "NOT_STARTED",
      })
    })

    it("settles an interrupted attempt only while the row is still that attempt's", async () => {
      const task = await delivery()
      const attempts = await service.tasks.startAttempt(task)
      await service.tasks.settleInterruptedAttempt({ task_row_id: task.id, attempts: attempts + 1 })
      expect(await service.retrieveLastmileTask(task.id)).toMatchObject({ status: "booking" })

      await service.tasks.settleInterruptedAttempt({ task_row_id: task.id, attempts })
      const settled = await service.retrieveLastmileTask(task.id)
      expect(settled).toMatchObject({ status: "failed", last_error: ATTEMPT_INTERRUPTED })
      expect(new Date(settled.next_attempt_at!).getTime()).toBeGreaterThan(Date.now())

      // A settled row is another run's outcome: a late compensation leaves it.
      await service.tasks.settleInterruptedAttempt({ task_row_id: task.id, attempts }, { posted: true, cause: "late" })
      expect(await service.retrieveLastmileTask(task.id)).toMatchObject({ status: "failed" })

      // A return whose request may have posted waits for the merchant; items picked by hand always do.
      for (const [kind, origin] of [
        ["return", "return"],
        ["delivery", "part"],
      ] as const) {
        const row = await service.tasks.findOrCreate({
          kind,
          origin,
          order_id: "order_1",
          merchant_order_id: `ref_${origin}`,
        })
        const attempt = await service.tasks.startAttempt(row)
        await service.tasks.settleInterruptedAttempt(
          { task_row_id: row.id, attempts: attempt },
          { posted: kind === "return" }
        )
        expect(await service.retrieveLastmileTask(row.id)).toMatchObject({ status: "needs_attention" })
      }
    })

    it("leaves a task whose fulfillment Medusa undid to be adopted, and items picked by hand to the merchant", async () => {
      for (const origin of ["order", "part"] as const) {
        const task = await service.tasks.findOrCreate({
          kind: "delivery",
          origin,
          order_id: "order_2",
          merchant_order_id: `order_2~${origin}`,
        })
        await service.tasks.startAttempt(task)
        await service.tasks.recordBooked(await service.retrieveLastmileTask(task.id), "ful_2", {
          task_id: "2002",
          tracking_id: null,
          tracking_url: null,
          rate_code: null,
          service_status: "NOT_STARTED",
          adopted: false,
        })
        await service.tasks.recordBookingUndone({ task_row_id: task.id, fulfillment_id: "ful_other" })
        expect(await service.retrieveLastmileTask(task.id)).toMatchObject({ status: "booked" })

        await service.tasks.recordBookingUndone({ task_row_id: task.id, fulfillment_id: "ful_2" })
        expect(await service.retrieveLastmileTask(task.id)).toMatchObject({
          status: origin === "part" ? "needs_attention" : "failed",
          fulfillment_id: null,
          task_id: "2002",
        })
      }
    })

    it("records a webhook as received for a known task, ignored for an unknown one, and a repeated event id as a duplicate", async () => {
      const task = await delivery("order_3")
      await service.updateLastmileTasks({ id: task.id, task_id: "3003" })
      const event = { eventKey: "id:evt_1", taskId: "3003", taskReference: "3003", payload: { taskId: 3003 } }

      expect(await service.webhookEvents.record(event)).toMatchObject({ status: "received", lastmile_task_id: task.id })
      expect(await service.webhookEvents.record(event)).toMatchObject({
        status: "duplicate",
        lastmile_task_id: task.id,
      })
      expect(
        await service.webhookEvents.record({ ...event, eventKey: "id:evt_2", taskId: "9999", taskReference: "9999" })
      ).toMatchObject({ status: "ignored", lastmile_task_id: null })
      expect(await service.listLastmileWebhookEvents({}, { take: 10 })).toHaveLength(3)
    })
  },
})
