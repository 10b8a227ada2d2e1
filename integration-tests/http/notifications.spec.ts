/**
 * The plugin's messages over HTTP with the repository's config: once per step on each channel, at most 10, never when
 * the merchant said no_notification, a throwing provider never stopping tracking (decisions 45 to 49, 60, 61). */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import {
  type LastmileOrderBookingResponse,
  type LastmileOrderLike,
  describeOrderTracking,
  readOrderTracking,
} from "medusa-plugin-lastmile-storefront"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { pollOpenTasks } from "../../src/workflows/sync-task-status/run"
import { notifyDueTasks } from "../../src/workflows/notify-task/run"
import { notifyTaskWorkflow } from "../../src/workflows/notify-task"
import { renderNotification } from "../../src/lib/notifications/render-notification"
import type { LastmileNotificationData } from "../../src/lib/notifications/notification-data"
import type { NotificationRecord } from "../../src/lib/notifications/notification-record"
import type { NotificationTestReport, NotificationsOverview } from "../../src/lib/contracts/admin-api"
import { type Admin, adminFor } from "../helpers/admin"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { lastmileTasks, requestReturn, waitForTask } from "../helpers/orders"
import { createAdminHeaders } from "../helpers/admin-auth"
import type { SeededStore } from "../helpers/seed-store"
import { TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { type Storefront, londonShopper, placeOrder } from "../helpers/storefront"
import { TEST_EMAIL_PROVIDER, testMailbox } from "../helpers/test-email-provider"

jest.setTimeout(120_000)

const MERCHANT_EMAILS = ["ops@shop.example", "owner@shop.example"]

const { simulator } = useSimulator(
  { locations: londonTestLocations(), config: { webhook: { retryBaseMs: 100, retryMaxMs: 1000, maxAttempts: 5 } } },
  {
    LASTMILE_TEST_EMAIL_PROVIDER: TEST_EMAIL_PROVIDER,
    // The same keeping provider on `sms`, so a test reads the texts it was handed.
    LASTMILE_TEST_SMS_PROVIDER: TEST_EMAIL_PROVIDER,
    LASTMILE_MERCHANT_EMAILS: ` ${MERCHANT_EMAILS[0]}, ${MERCHANT_EMAILS[1].toUpperCase()} `,
    LASTMILE_TIME_ZONE: "Europe/London",
  }
)

/** The simulator's control API, over HTTP, as a person driving it would. */
async function control<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${simulator.url}/__sim${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  })
  expect({ path, status: response.status }).toEqual({ path, status: 200 })
  return (await response.json()) as T
}

interface Listed {
  id: string
  to: string
  channel: string
  template: string
  status: string
  resource_id: string
  resource_type: string
  trigger_type: string
  data: LastmileNotificationData
}

const DAY = 86_400_000
let shoppers = 0

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
      simulator.configure({ webhookUrl: hookUrl })
      testMailbox().down = false
    })

    /** An order of one tee by a shopper of its own (the list is read by `to`). */
    const order = async (optionId: string, shopper: Partial<typeof londonShopper> = {}) => {
      const email = `shopper-${++shoppers}-${Date.now()}@example.com`
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        email,
        shipping_address: { ...londonShopper, ...shopper },
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
      expect((await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: optionId })).status).toBe(200)
      const placed = await placeOrder(shop, cart.id)
      return { ...placed, email }
    }
    const tasks = () => lastmileTasks(getContainer())
    const record = async (taskRowId: string) =>
      ((await tasks().retrieveLastmileTask(taskRowId)).notifications ?? {
        sent: {},
        failed: {},
        skipped: {},
      }) as NotificationRecord
    /** Waits until the task's record says each key was sent (or failed, with `failed`). */
    const until = async (taskRowId: string, keys: string[], part: "sent" | "failed" = "sent") => {
      for (let tries = 0; ; tries++) {
        const kept = await record(taskRowId)
        if (keys.every((k) => k in kept[part])) {
          return kept
        }
        if (tries > 200) {
          throw new Error(`task ${taskRowId} never had ${keys.join(", ")} ${part}: ${JSON.stringify(kept)}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    const settle = async () => {
      await simulator.webhooks.idle()
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    const listed = async (query: string): Promise<Listed[]> => {
      const fields = "id,to,channel,template,status,data,resource_id,resource_type,trigger_type,created_at"
      const response = await admin.get<{ notifications: Listed[] }>(
        `/admin/notifications?${query}&fields=${fields}&order=created_at&limit=200`
      )
      expect(response.status).toBe(200)
      return response.data.notifications
    }
    const emailsTo = (email: string) => listed(`to=${encodeURIComponent(email)}`)
    /** The merchant's feed as the admin's bell asks for it: its channel, to the admin or to everyone. */
    const bell = async () => {
      const me = await admin.get<{ user: { id: string; email: string } }>("/admin/users/me")
      const to = [me.data.user.id, me.data.user.email, ""].map((v) => `to[]=${encodeURIComponent(v)}`).join("&")
      return listed(`channel=feed&${to}`)
    }
    const feedOf = async (orderId: string) => (await bell()).filter((n) => n.resource_id === orderId)
    /** The doorbell as the service rings it, with no event id: each one starts a re-read. */
    const ring = (taskId: number, value: string) =>
      api.post(hookUrl, JSON.stringify({ taskId, status: { value } }), {
        headers: { "content-type": "application/json" },
        transformRequest: [(data: unknown) => data],
      })
    const later = (ms: number) => new Date(Date.now() + ms)
    /** What the shopper's order page says, read as the storefront package reads it: the order, then the booking. */
    const shopperSees = async (orderId: string) => {
      const [order, booking] = await Promise.all([
        shop.get<{ order: LastmileOrderLike }>(`/store/orders/${orderId}?fields=id,*shipping_methods,*fulfillments`),
        shop.get<LastmileOrderBookingResponse>(`/store/lastmile/orders/${orderId}/booking`),
      ])
      expect([order.status, booking.status]).toEqual([200, 200])
      return describeOrderTracking(readOrderTracking(order.data.order, booking.data)!).statusText
    }

    it("sends a delivery's booked, out for delivery and delivered once each, whatever the webhooks do", async () => {
      simulator.configure({ webhookUrl: undefined })
      const placed = await order(seed.options.nextDay)
      const task = await waitForTask(getContainer(), placed.id)
      const taskId = Number(task.task_id)
      await until(task.id, ["delivery_booked"])

      // Each step's webhook twice at once, racing a poll of the task.
      for (const value of ["IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERED"]) {
        simulator.setTaskStatus(taskId, value)
        const answers = await Promise.all([
          ring(taskId, value),
          ring(taskId, value),
          pollOpenTasks(getContainer(), { now: later(DAY) }),
        ])
        expect(answers.slice(0, 2).map((a) => (a as { status: number }).status)).toEqual([200, 200])
        await waitForTask(getContainer(), placed.id, (t) => t.service_status === value)
        if (value === "OUT_FOR_DELIVERY") {
          expect(await shopperSees(placed.id)).toBe("Out for delivery: it is with the driver.")
        }
      }
      await until(task.id, ["delivery_out_for_delivery", "delivery_delivered"])
      // Out of order: a late "out for delivery", which the service's lookup still answers, twice.
      simulator.setTaskStatus(taskId, "OUT_FOR_DELIVERY")
      await Promise.all([ring(taskId, "OUT_FOR_DELIVERY"), ring(taskId, "OUT_FOR_DELIVERY")])
      await waitForTask(getContainer(), placed.id, (t) => t.service_status === "OUT_FOR_DELIVERY")
      await settle()
      await notifyDueTasks(getContainer(), { now: later(10 * 60_000) })

      const emails = await emailsTo(placed.email)
      expect(emails.map((n) => [n.template, n.channel, n.to, n.resource_type, n.resource_id, n.status])).toEqual([
        ["lastmile-delivery-booked", "email", placed.email, "order", placed.id, "success"],
        ["lastmile-delivery-out-for-delivery", "email", placed.email, "order", placed.id, "success"],
        ["lastmile-delivery-delivered", "email", placed.email, "order", placed.id, "success"],
      ])
      const [booked] = emails
      expect(booked.data).toMatchObject({
        event: "delivery_booked",
        audience: "shopper",
        title: `Your order #${placed.display_id} is booked for delivery`,
        order: { id: placed.id, display_id: placed.display_id, name: `#${placed.display_id}`, email: placed.email },
        customer: { first_name: "Ada", full_name: "Ada Lovelace" },
        tracking: { code: task.tracking_id, url: task.tracking_url },
        rate: { name: "Next day delivery" },
        window: { text: expect.stringMatching(/ between 08:00 and 20:00$/) },
      })
      // The items, named as the shopper bought them (the product and its variant), and the shop.
      expect(booked.data.items).toEqual([{ title: expect.stringMatching(/^Demo tee \(.+\)$/i), quantity: 1 }])
      expect(booked.data.shop.name).toEqual(expect.any(String))
      // What the provider was handed: the stored data's own words, rebuilt the same from the list.
      const handed = testMailbox().sent.filter((n) => n.to === placed.email)
      expect(handed.map((n) => n.content?.subject)).toEqual(emails.map((n) => n.data.title))
      expect(handed[0].content?.text).toContain(`Track your delivery: ${task.tracking_url}`)
      expect(renderNotification(booked.data).text).toBe(handed[0].content?.text)
      expect(await feedOf(placed.id)).toEqual([])
    })

    it("sends a collection's booked, ready, reminder at half its hold and collected, telling the merchant when the hold is up", async () => {
      const placed = await order(seed.options.collection["store-brixton"])
      const task = await waitForTask(getContainer(), placed.id)
      expect(task.status).toBe("booked")
      await until(task.id, ["collection_booked"])

      expect(simulator.advanceTask(Number(task.task_id)).status.value).toBe("READY_FOR_COLLECTION")
      const ready = await until(task.id, ["collection_ready"])
      expect(await shopperSees(placed.id)).toBe("Ready to collect at the store.")
      // Held 7 open days (the store is open every day) to its closing time: the reminder at half of that.
      const held = await tasks().retrieveLastmileTask(task.id)
      const { ready_at, collect_by } = held.collection as { ready_at: string; collect_by: string }
      expect(Date.parse(collect_by) - Date.parse(ready_at)).toBeGreaterThan(7 * DAY - 60_000)
      expect(Date.parse(collect_by) - Date.parse(ready_at)).toBeLessThan(8 * DAY)
      const remindAt = Date.parse(held.notify_at as unknown as string)
      expect(remindAt - Date.parse(ready.sent.collection_ready.at)).toBeGreaterThan(3.5 * DAY - 60_000)
      expect(remindAt - Date.parse(ready.sent.collection_ready.at)).toBeLessThan(4 * DAY + 60_000)

      // Nothing before the reminder is due; then the reminder, once; the merchant hears when the hold is up.
      expect((await notifyDueTasks(getContainer(), { now: later(DAY) }))[task.id]).toBeUndefined()
      const due = await notifyDueTasks(getContainer(), { now: later(4 * DAY + 60_000) })
      expect(due[task.id]).toMatchObject({ sent: ["collection_reminder", "collection_reminder|sms"] })
      expect((await notifyDueTasks(getContainer(), { now: later(4 * DAY + 120_000) }))[task.id]).toBeUndefined()
      const up = await notifyDueTasks(getContainer(), { now: later(8 * DAY) })
      expect(up[task.id]).toMatchObject({
        sent: ["merchant_not_collected", ...MERCHANT_EMAILS.map((address) => `merchant_not_collected|to:${address}`)],
      })
      expect((await notifyDueTasks(getContainer(), { now: later(8 * DAY + 60_000) }))[task.id]).toBeUndefined()

      expect(simulator.advanceTask(Number(task.task_id)).status.value).toBe("COLLECTED_BY_CUSTOMER")
      await until(task.id, ["collection_collected"])
      await settle()
      expect(await shopperSees(placed.id)).toBe("Collected.")

      const emails = await emailsTo(placed.email)
      expect(emails.map((n) => [n.template, n.to, n.resource_id])).toEqual([
        ["lastmile-collection-booked", placed.email, placed.id],
        ["lastmile-collection-ready", placed.email, placed.id],
        ["lastmile-collection-reminder", placed.email, placed.id],
        ["lastmile-collection-collected", placed.email, placed.id],
      ])
      expect(emails[1].data).toMatchObject({
        title: `Your order #${placed.display_id} is ready to collect`,
        store: {
          name: "Brixton store",
          address: { text: "4 Electric Avenue, London SW9 8JX" },
          opening_hours: ["Monday to Sunday: 00:00–23:59"],
        },
      })
      const readyText = testMailbox().sent.find(
        (n) => n.to === placed.email && n.template === "lastmile-collection-ready"
      )
      expect(readyText?.content?.text).toContain(
        `bring your collection code and your order number, #${placed.display_id}.`
      )
      const feed = await feedOf(placed.id)
      expect(feed.map((n) => [n.template, n.to, n.channel, n.resource_type])).toEqual([
        ["lastmile-merchant-not-collected", "", "feed", "order"],
      ])
      expect(feed[0].data.title).toBe(`Not collected: order #${placed.display_id}`)
      expect(feed[0].data.description).toContain(`/app/orders/${placed.id}`)
    })

    /** Sets the task's status through the simulator's control API and waits until the plugin has recorded it. */
    const moveTo = async (orderId: string, taskId: number, value: string) => {
      await control(`/tasks/${taskId}/status`, { value })
      return waitForTask(getContainer(), orderId, (t) => t.service_status === value)
    }
    /** What the keeping provider was handed on a channel for an address or a phone. */
    const handedTo = (channel: string, to: string) =>
      testMailbox().sent.filter((n) => n.channel === channel && n.to === to)

    it("tells one failed attempt once, however many failure statuses report it, and again only after a new trip", async () => {
      const placed = await order(seed.options.nextDay)
      const task = await waitForTask(getContainer(), placed.id)
      const taskId = Number(task.task_id)
      await until(task.id, ["delivery_booked"])
      await moveTo(placed.id, taskId, "OUT_FOR_DELIVERY")
      await until(task.id, ["delivery_out_for_delivery"])
      for (const value of ["FAILED", "FAILED_ATTEMPT", "DELIVERY_FAILED", "ATTEMPTED"]) {
        await moveTo(placed.id, taskId, value)
      }
      await until(task.id, ["delivery_problem", "merchant_delivery_problem"])
      await settle()
      await pollOpenTasks(getContainer(), { now: later(60_000) })
      await notifyDueTasks(getContainer(), { now: later(10 * 60_000) })
      expect((await emailsTo(placed.email)).map((n) => n.template)).toEqual([
        "lastmile-delivery-booked",
        "lastmile-delivery-out-for-delivery",
        "lastmile-delivery-problem",
      ])
      expect((await feedOf(placed.id)).map((n) => n.template)).toEqual(["lastmile-merchant-delivery-problem"])

      // Out again: a new trip, told with no window (the booked one is not the truth any more, and the service gave none).
      await moveTo(placed.id, taskId, "OUT_FOR_DELIVERY")
      await until(task.id, ["delivery_out_for_delivery:2"])
      const emails = await emailsTo(placed.email)
      expect(emails.map((n) => n.template)).toEqual([
        "lastmile-delivery-booked",
        "lastmile-delivery-out-for-delivery",
        "lastmile-delivery-problem",
        "lastmile-delivery-out-for-delivery",
      ])
      expect(emails[3].data.window).toBeNull()
      const handed = handedTo("email", placed.email).at(-1)
      expect(handed?.content?.text).not.toContain("It should arrive")

      // A service that gives the new trip's window: the message says it.
      simulator.configure({ reattemptWindow: true })
      try {
        const second = await order(seed.options.nextDay)
        const secondTask = await waitForTask(getContainer(), second.id)
        const id = Number(secondTask.task_id)
        await moveTo(second.id, id, "OUT_FOR_DELIVERY")
        await control(`/tasks/${id}/fail-attempt`, {})
        await waitForTask(getContainer(), second.id, (t) => t.service_status === "FAILED_ATTEMPT")
        const again = await control<{ window: { from: string; to: string } }>(`/tasks/${id}/advance`, {})
        await until(secondTask.id, ["delivery_out_for_delivery:2"])
        const out = (await emailsTo(second.email)).at(-1)!
        expect(out.data.window).toMatchObject({ from: again.window.from, to: again.window.to })
        expect(handedTo("email", second.email).at(-1)?.content?.text).toContain(
          `It should arrive ${out.data.window?.text}.`
        )
      } finally {
        simulator.configure({ reattemptWindow: false })
      }
    })

    it("stops a flapping task's messages at 10, and records each status it flaps between once", async () => {
      const placed = await order(seed.options.nextDay)
      const task = await waitForTask(getContainer(), placed.id)
      const taskId = Number(task.task_id)
      await until(task.id, ["delivery_booked"])
      for (let flip = 0; flip < 14; flip++) {
        await moveTo(placed.id, taskId, flip % 2 === 0 ? "OUT_FOR_DELIVERY" : "FAILED_ATTEMPT")
        await settle()
      }
      await notifyDueTasks(getContainer(), { now: later(10 * 60_000) })
      const emails = await emailsTo(placed.email)
      expect(emails).toHaveLength(10)
      expect(emails.every((n) => n.status === "success")).toBe(true)
      const kept = await record(task.id)
      expect(Object.values(kept.skipped).map((s) => s.reason)).toContain(
        "the task has told its shopper 10 times already"
      )
      const history = (await waitForTask(getContainer(), placed.id)).status_history.entries
      const statuses = history.filter((e) => e.source).map((e) => e.value)
      expect(statuses).toEqual(["OUT_FOR_DELIVERY", "FAILED_ATTEMPT"])
      expect(history.find((e) => e.value === "OUT_FOR_DELIVERY")).toMatchObject({ times: 7 })
    })

    it("texts out for delivery and ready to collect to the order's phone in E.164, in one SMS with the tracking link", async () => {
      const delivery = await order(seed.options.nextDay)
      const task = await waitForTask(getContainer(), delivery.id)
      await moveTo(delivery.id, Number(task.task_id), "OUT_FOR_DELIVERY")
      await until(task.id, ["delivery_out_for_delivery", "delivery_out_for_delivery|sms"])
      const collection = await order(seed.options.collection["store-brixton"], { phone: "+44 7911 123457" })
      const collected = await waitForTask(getContainer(), collection.id)
      expect(simulator.advanceTask(Number(collected.task_id)).status.value).toBe("READY_FOR_COLLECTION")
      await until(collected.id, ["collection_ready", "collection_ready|sms"])

      const texts = await listed("channel=sms")
      const mine = texts.filter((n) => [delivery.id, collection.id].includes(n.resource_id))
      expect(mine.map((n) => [n.resource_id, n.to, n.template, n.status])).toEqual([
        [delivery.id, "+447911123456", "lastmile-delivery-out-for-delivery-sms", "success"],
        [collection.id, "+447911123457", "lastmile-collection-ready-sms", "success"],
      ])
      const [out, ready] = [handedTo("sms", "+447911123456").at(-1), handedTo("sms", "+447911123457").at(-1)]
      for (const [sms, tracking] of [
        [out, task.tracking_url],
        [ready, collected.tracking_url],
      ] as const) {
        expect(sms?.content?.text?.length).toBeLessThanOrEqual(160)
        expect(sms?.content?.text).toContain(tracking)
      }
      expect(out?.content?.text).toContain(`#${delivery.display_id} is out for delivery`)
      expect(ready?.content?.text).toContain(`#${collection.display_id} is ready to collect at Brixton store`)
      // Booked and delivered go by email only.
      expect(texts.filter((n) => n.resource_id === delivery.id && n.template.includes("booked"))).toEqual([])
    })

    it("never writes a shopper's name with a line break or a link as typed", async () => {
      const relay = "Ada\n\nURGENT: your parcel is held. Pay the fee at https://evil.example/pay"
      const first = await order(seed.options.nextDay, { first_name: relay })
      const task = await waitForTask(getContainer(), first.id)
      await until(task.id, ["delivery_booked"])
      const linked = await order(seed.options.nextDay, { first_name: "Pay at evil.example" })
      const other = await waitForTask(getContainer(), linked.id)
      await until(other.id, ["delivery_booked"])
      const [booked] = await emailsTo(first.email)
      expect(booked.data.customer).toMatchObject({ first_name: "Ada", full_name: "Ada Lovelace" })
      const text = handedTo("email", first.email)[0]?.content?.text ?? ""
      expect(text.startsWith("Hello Ada,\n\n")).toBe(true)
      expect(text).not.toContain("URGENT")
      expect(text).not.toContain("evil.example")
      const [linkedEmail] = await emailsTo(linked.email)
      expect(linkedEmail.data.customer.first_name).toBeNull()
      const linkedText = handedTo("email", linked.email)[0]?.content?.text ?? ""
      expect(linkedText.startsWith("Hello,\n\n")).toBe(true)
      expect(JSON.stringify(linkedEmail.data)).not.toContain("evil.example")
    })

    it("puts a failed booking on the merchant's feed once, and sends the shopper nothing", async () => {
      simulator.addFault({ operation: "bookDelivery", kind: "status", status: 422 })
      const placed = await order(seed.options.nextDay)
      const task = await waitForTask(getContainer(), placed.id)
      expect(task.status).toBe("needs_attention")
      await until(task.id, ["merchant_booking_needs_attention"])
      // Every road that looks at the task again: the poll, the notification pass, the workflow itself.
      await pollOpenTasks(getContainer(), { now: later(DAY) })
      await notifyDueTasks(getContainer(), { now: later(DAY) })
      await notifyTaskWorkflow(getContainer()).run({ input: { task_row_id: task.id } })
      await notifyTaskWorkflow(getContainer()).run({ input: { merchant_order_id: placed.id } })

      const feed = await feedOf(placed.id)
      expect(feed.map((n) => [n.template, n.to, n.resource_type, n.resource_id])).toEqual([
        ["lastmile-merchant-booking-needs-attention", "", "order", placed.id],
      ])
      expect(feed[0].data).toMatchObject({
        audience: "merchant",
        title: `Booking needs you: order #${placed.display_id}`,
        booking: { retrying: false, reason: expect.any(String) },
      })
      expect(feed[0].data.description).toContain(task.last_error ?? "")
      expect(feed[0].data.description).toContain(`/app/orders/${placed.id}`)
      expect(await emailsTo(placed.email)).toEqual([])
      // And once to each of LASTMILE_MERCHANT_EMAILS, on the email channel, with the order's admin link.
      for (const address of MERCHANT_EMAILS) {
        const alerts = (await emailsTo(address)).filter((n) => n.resource_id === placed.id)
        expect(alerts.map((n) => [n.template, n.channel, n.to, n.status])).toEqual([
          ["lastmile-merchant-booking-needs-attention", "email", address, "success"],
        ])
        const handed = handedTo("email", address).filter(
          (n) => (n.data as LastmileNotificationData | undefined)?.order.id === placed.id
        )
        expect(handed).toHaveLength(1)
        expect(handed[0].content?.subject).toBe(`Booking needs you: order #${placed.display_id}`)
        expect(handed[0].content?.text).toContain(`/app/orders/${placed.id}`)
      }
    })

    it("marks the fulfillment delivered while the email provider throws, records it, and sends the latest later", async () => {
      testMailbox().down = true
      const placed = await order(seed.options.nextDay)
      const task = await waitForTask(getContainer(), placed.id)
      expect(task.status).toBe("booked")
      await until(task.id, ["delivery_booked"], "failed")

      simulator.setTaskStatus(Number(task.task_id), "DELIVERED")
      const delivered = await waitForTask(getContainer(), placed.id, (t) => t.tracking_state === "delivered")
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data } = await query.graph({
        entity: "fulfillment",
        fields: ["delivered_at"],
        filters: { id: delivered.fulfillment_id! },
      })
      expect(data[0].delivered_at).not.toBeNull()
      const failed = await until(task.id, ["delivery_delivered"], "failed")
      expect(failed.failed.delivery_delivered).toMatchObject({ attempts: 1, error: expect.stringContaining("down") })
      // The booked message is not retried any more: delivered came first.
      expect(failed.skipped.delivery_booked).toMatchObject({ reason: "the task moved on before it could be sent" })

      // The merchant sees it in the order's Lastmile panel.
      const panel = await admin.get<{ tasks: { history: { value: string; detail?: string }[] }[] }>(
        `/admin/lastmile/orders/${placed.id}`
      )
      const noted = panel.data.tasks[0].history.filter((e) => e.value === "notification failed")
      expect(noted.map((e) => e.detail)).toEqual([
        expect.stringContaining(`“Your order #${placed.display_id} is booked for delivery” could not be sent`),
        expect.stringContaining(`“Your order #${placed.display_id} has been delivered” could not be sent`),
      ])

      // Back up: the pass sends the latest step only, never the booked message after it.
      testMailbox().down = false
      const retried = await notifyDueTasks(getContainer(), { now: later(5 * 60_000) })
      expect(retried[task.id]).toMatchObject({ sent: ["delivery_delivered"] })
      const emails = await emailsTo(placed.email)
      expect(emails.map((n) => [n.template, n.status])).toEqual([
        ["lastmile-delivery-booked", "failure"],
        ["lastmile-delivery-delivered", "success"],
      ])
      expect(
        testMailbox()
          .sent.filter((n) => n.to === placed.email)
          .map((n) => n.template)
      ).toEqual(["lastmile-delivery-delivered"])
      expect(await notifyDueTasks(getContainer(), { now: later(30 * 60_000) })).not.toHaveProperty(task.id)
    })

    it("tells of a failed attempt, sends the parcel out again, and tells the merchant when the service cancels", async () => {
      simulator.configure({ webhookUrl: hookUrl })
      const first = await order(seed.options.nextDay)
      const task = await waitForTask(getContainer(), first.id)
      const taskId = Number(task.task_id)
      for (let moves = 0; moves < 4; moves++) {
        simulator.advanceTask(taskId)
      }
      await until(task.id, ["delivery_out_for_delivery"])
      simulator.failAttempt(taskId)
      await until(task.id, ["delivery_problem", "merchant_delivery_problem"])
      simulator.advanceTask(taskId)
      await until(task.id, ["delivery_out_for_delivery:2"])
      const emails = await emailsTo(first.email)
      expect(emails.map((n) => n.template)).toEqual([
        "lastmile-delivery-booked",
        "lastmile-delivery-out-for-delivery",
        "lastmile-delivery-problem",
        "lastmile-delivery-out-for-delivery",
      ])
      expect(emails[2].data).toMatchObject({ problem: { kind: "failed_attempt", status: "FAILED_ATTEMPT" } })
      expect(emails[2].data.title).toBe(`We could not deliver your order #${first.display_id}`)
      expect((await feedOf(first.id)).map((n) => n.data.title)).toEqual([
        `Delivery problem: order #${first.display_id}`,
      ])

      const second = await order(seed.options.nextDay)
      const cancelled = await waitForTask(getContainer(), second.id)
      simulator.cancelTask(Number(cancelled.task_id))
      await until(cancelled.id, ["merchant_task_cancelled"])
      expect((await feedOf(second.id)).map((n) => n.data.title)).toEqual([
        `Cancelled by the service: order #${second.display_id}`,
      ])
      expect((await emailsTo(second.email)).map((n) => n.template)).toEqual(["lastmile-delivery-booked"])
    })

    it("tells the shopper nothing of a return the merchant confirmed with no_notification, and the merchant still hears", async () => {
      const placed = await order(seed.options.nextDay)
      await waitForTask(getContainer(), placed.id)
      const returnId = await requestReturn(api, getContainer(), seed, placed.id, "quiet-returns@lastmile.test", {
        noNotification: true,
      })
      const task = await waitForTask(getContainer(), returnId)
      expect(task.status).toBe("booked")
      simulator.setTaskStatus(Number(task.task_id), "CANCELLED")
      await until(task.id, ["merchant_task_cancelled"])
      await notifyDueTasks(getContainer(), { now: later(10 * 60_000) })
      const kept = await record(task.id)
      expect(kept.skipped.return_booked?.reason).toBe(
        "the merchant turned notifications off for the return (no_notification)"
      )
      expect((await emailsTo(placed.email)).filter((n) => n.data.task.kind === "return")).toEqual([])
      expect((await feedOf(placed.id)).map((n) => n.template)).toEqual(["lastmile-merchant-task-cancelled"])
      // A return created with no_notification (POST /admin/returns) is as quiet.
      const admin = await createAdminHeaders(getContainer(), "quiet-returns-2@lastmile.test")
      const created = await api.post(
        "/admin/returns",
        { order_id: placed.id, location_id: seed.warehouseId, no_notification: true },
        admin
      )
      expect(created.status).toBe(200)
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "return", fields: ["id", "no_notification"], filters: { id: created.data.return.id } })
      expect(data[0].no_notification).toBe(true)
    })

    it("shows each channel's provider and sends a test of every message, saying what each provider answered", async () => {
      const overview = await admin.get<NotificationsOverview>("/admin/lastmile/notifications")
      expect(overview.status).toBe(200)
      expect(overview.data.channels.map((c) => [c.role, c.channel, c.provider?.id ?? null])).toEqual([
        ["shopper_email", "email", "local-email"],
        ["shopper_sms", "sms", "local-sms"],
        ["merchant_feed", "feed", "local"],
        ["merchant_email", "email", "local-email"],
      ])
      expect(overview.data.channels[3].recipients).toEqual(MERCHANT_EMAILS)
      expect(overview.data.locales).toMatchObject({ default: "en-GB", with_words: ["en-GB", "en-US"] })
      expect(overview.data.events.filter((e) => e.by_sms).map((e) => e.event)).toEqual([
        "delivery_out_for_delivery",
        "delivery_problem",
        "collection_ready",
        "collection_reminder",
        "collection_extended",
      ])

      const sent = await admin.post<NotificationTestReport>("/admin/lastmile/notifications/test", {
        email: "merchant-test@example.com",
        phone: "07911 123456",
      })
      // A phone written locally has no country to read it in: international format only.
      expect(sent.status).toBe(400)
      testMailbox().down = false
      const report = await admin.post<NotificationTestReport>("/admin/lastmile/notifications/test", {
        email: "merchant-test@example.com",
        phone: "+44 7911 123456",
      })
      expect(report.status).toBe(200)
      expect(report.data.results).toHaveLength(21)
      expect(report.data.results.every((r) => r.status === "sent" && r.provider)).toBe(true)
      expect(report.data.results.filter((r) => r.via === "sms").map((r) => r.to)).toEqual(
        Array(5).fill("+447911123456")
      )
      const handed = testMailbox().sent.filter((n) => n.to === "merchant-test@example.com")
      expect(handed).toHaveLength(16)
      expect(handed.find((n) => n.template === "lastmile-delivery-booked")?.content?.subject).toBe(
        "Your order #1001 is booked for delivery"
      )
      // A provider that throws is said, not hidden.
      testMailbox().down = true
      const failing = await admin.post<NotificationTestReport>("/admin/lastmile/notifications/test", {
        email: "merchant-test@example.com",
      })
      expect(failing.data.results[0]).toMatchObject({ status: "failed", error: expect.stringContaining("down") })
      for (const bad of [{}, { email: "not an address" }, { phone: "12" }, { email: "a@b.example", extra: 1 }]) {
        expect((await admin.post("/admin/lastmile/notifications/test", bad)).status).toBe(400)
      }
    })

    it("tells a return's shopper when it is booked and when it has arrived", async () => {
      const placed = await order(seed.options.nextDay)
      await waitForTask(getContainer(), placed.id)
      const returnId = await requestReturn(api, getContainer(), seed, placed.id, "notifications-returns@lastmile.test")
      const task = await waitForTask(getContainer(), returnId)
      expect(task.status).toBe("booked")
      await until(task.id, ["return_booked"])
      simulator.setTaskStatus(Number(task.task_id), "DELIVERED")
      await until(task.id, ["return_received"])
      const emails = (await emailsTo(placed.email)).filter((n) => n.data.task.kind === "return")
      expect(emails.map((n) => n.data.title)).toEqual([
        `Your return for order #${placed.display_id} is booked`,
        `We have received your return for order #${placed.display_id}`,
      ])
      expect(emails[0].data.pickup_address?.text).toBe("10 Downing Street, London SW1A 2AA")
    })
  },
})
