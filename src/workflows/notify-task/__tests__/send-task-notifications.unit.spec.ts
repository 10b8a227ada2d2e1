/**
 * The step against fakes of Medusa's modules (the Notification Module is where messages leave): a channel without a
 * provider, a provider that throws (recorded, retried, in the history), a busy lock left to the pass.
 */
import { asValue } from "@medusajs/framework/awilix"
import { ContainerRegistrationKeys, Modules, createMedusaContainer } from "@medusajs/framework/utils"
import { StatusTable } from "../../../lib/tracking/status-table"
import { notificationOptionsSchema, resolveNotificationOptions } from "../../../lib/notifications/notification-options"
import { sendTaskNotifications } from "../steps/send-task-notifications"
import { NotDeliveredError, sendOnce } from "../../../lib/notifications/notify-pass"
import type { OutgoingMessage } from "../../../lib/notifications/notify-pass"

const BOOKED_AT = new Date("2026-12-01T09:00:00Z")
const NOW = new Date("2026-12-01T09:05:00Z")

function row(overrides: Record<string, unknown> = {}) {
  return {
    id: "lmtask_1",
    kind: "delivery",
    mode: null,
    origin: "order",
    order_id: "order_1",
    fulfillment_id: null,
    merchant_order_id: "order_1",
    status: "needs_attention",
    attempts: 1,
    rate_code: "NEXT_DAY",
    merchant_location_id: null,
    stock_location_id: null,
    quoted_rate: null,
    service_status: null,
    tracking_id: null,
    tracking_url: null,
    tracking_state: "awaiting",
    last_error: "The rate is no longer offered",
    next_attempt_at: null,
    booked_at: null,
    cancellation: null,
    status_history: { entries: [{ value: "needs_attention", at: BOOKED_AT.toISOString() }] },
    notifications: null,
    notify_at: null,
    ...overrides,
  }
}

function fakeContainer({
  channels,
  task,
  send,
  lockBusy = false,
}: {
  channels: string[]
  task: Record<string, unknown>
  send: (message: Record<string, unknown>) => Promise<{ id: string }>
  lockBusy?: boolean
}) {
  const updates: Record<string, unknown>[] = []
  const created: Record<string, unknown>[] = []
  const warnings: string[] = []
  const container = createMedusaContainer()
  container.register({
    [ContainerRegistrationKeys.LOGGER]: asValue({ warn: (m: string) => warnings.push(m), info: jest.fn() }),
    [ContainerRegistrationKeys.QUERY]: asValue({
      graph: async ({ entity }: { entity: string }) => {
        if (entity === "store") {
          return { data: [{ id: "store_1", name: "Lastmile Demo Shop", supported_locales: [] }] }
        }
        if (entity !== "order") {
          throw new Error(`unexpected query of ${entity}`)
        }
        return {
          data: [
            {
              id: "order_1",
              display_id: 1001,
              email: "ada@example.com",
              customer: { first_name: "Ada", last_name: "Lovelace" },
              shipping_address: { first_name: "Ada", last_name: "Lovelace", address_1: "10 Downing Street" },
            },
          ],
        }
      },
    }),
    [Modules.LOCKING]: asValue({
      execute: async (_key: string, job: () => Promise<unknown>) => {
        if (lockBusy) {
          throw new Error("Timed-out acquiring lock.")
        }
        return job()
      },
    }),
    [Modules.NOTIFICATION]: asValue({
      listNotifications: async () => [],
      deleteNotifications: async () => undefined,
      updateNotifications: async () => undefined,
      createNotifications: async (message: Record<string, unknown>) => {
        created.push(message)
        return send(message)
      },
    }),
    // The module's face: the job services the step reads (see modules/lastmile/service.ts).
    lastmile: asValue({
      settings: {
        options: {
          notifications: resolveNotificationOptions(notificationOptionsSchema.parse({}), new StatusTable()),
        },
        canNotifyOn: (channel: string) => channels.includes(channel),
        requiresMessageId: () => false,
        adminOrderUrl: (id: string) => `/app/orders/${id}`,
      },
      tasks: {
        retrieve: async () => task,
        list: async () => [task],
        update: async (update: Record<string, unknown>) => {
          updates.push(update)
        },
      },
      connection: { get: () => null },
    }),
  })
  return { container, updates, created, warnings }
}

describe("sendTaskNotifications", () => {
  it("sends on the channels that have a provider only, and records what it sent", async () => {
    const booked = row({ status: "booked", booked_at: BOOKED_AT, service_status: "NOT_STARTED" })
    const noEmail = fakeContainer({ channels: ["feed"], task: booked, send: async () => ({ id: "noti_1" }) })
    const outcome = await sendTaskNotifications(noEmail.container, { task_row_id: "lmtask_1", now: NOW.toISOString() })
    expect(outcome).toEqual({ sent: [], failed: [], skipped: [] })
    expect(noEmail.created).toEqual([])
    expect(noEmail.updates).toEqual([])

    const withEmail = fakeContainer({ channels: ["email", "feed"], task: booked, send: async () => ({ id: "noti_1" }) })
    await sendTaskNotifications(withEmail.container, { merchant_order_id: "order_1", now: NOW.toISOString() })
    expect(withEmail.created).toEqual([
      expect.objectContaining({
        to: "ada@example.com",
        channel: "email",
        template: "lastmile-delivery-booked",
        resource_type: "order",
        resource_id: "order_1",
        idempotency_key: "lastmile:lmtask_1:delivery_booked",
        content: expect.objectContaining({ subject: "Your order #1001 is booked for delivery" }),
      }),
    ])
    expect(withEmail.updates).toEqual([
      expect.objectContaining({
        id: "lmtask_1",
        notifications: expect.objectContaining({
          sent: { delivery_booked: expect.objectContaining({ notification_id: "noti_1", channel: "email" }) },
        }),
        notify_at: null,
      }),
    ])
  })

  it("puts the merchant's alert on the feed, to every admin", async () => {
    const { container, created } = fakeContainer({
      channels: ["feed"],
      task: row(),
      send: async () => ({ id: "noti_2" }),
    })
    const outcome = await sendTaskNotifications(container, { task_row_id: "lmtask_1", now: NOW.toISOString() })
    expect(outcome.sent).toEqual(["merchant_booking_needs_attention"])
    expect(created[0]).toMatchObject({
      to: "",
      channel: "feed",
      data: { title: "Booking needs you: order #1001", order: { admin_url: "/app/orders/order_1" } },
    })
  })

  it("records a provider that throws, retries it later, and says so in the task's history, never throwing", async () => {
    const { container, updates, warnings } = fakeContainer({
      channels: ["feed"],
      task: row(),
      send: async () => {
        throw new Error("Failed to send notification: the provider is down")
      },
    })
    const outcome = await sendTaskNotifications(container, { task_row_id: "lmtask_1", now: NOW.toISOString() })
    expect(outcome.failed).toEqual(["merchant_booking_needs_attention"])
    expect(warnings).toEqual([])
    expect(updates).toEqual([
      expect.objectContaining({
        notify_at: new Date(NOW.getTime() + 60_000),
        notifications: expect.objectContaining({
          failed: { merchant_booking_needs_attention: expect.objectContaining({ attempts: 1 }) },
        }),
        status_history: {
          entries: [
            expect.objectContaining({ value: "needs_attention" }),
            expect.objectContaining({
              value: "notification failed",
              detail: expect.stringContaining("could not be sent (attempt 1 of 5"),
            }),
          ],
        },
      }),
    ])
  })

  it("leaves a task whose lock is busy to the notification pass, a minute later", async () => {
    const { container, updates, created } = fakeContainer({
      channels: ["feed"],
      task: row(),
      send: async () => ({ id: "noti_3" }),
      lockBusy: true,
    })
    const outcome = await sendTaskNotifications(container, { task_row_id: "lmtask_1", now: NOW.toISOString() })
    expect(outcome.not_run).toMatch(/lock was busy/)
    expect(created).toEqual([])
    expect(updates).toEqual([{ id: "lmtask_1", notify_at: new Date(NOW.getTime() + 60_000) }])
  })
})

describe("sendOnce", () => {
  const message = { channel: "email", idempotency_key: "lastmile:lmtask_1:delivery_booked" } as OutgoingMessage
  const module = (
    answer: { id: string; external_id?: string | null },
    earlier: { id: string; status: string; external_id?: string | null }[] = []
  ) => {
    const calls: string[] = []
    return {
      calls,
      notifications: {
        listNotifications: async () => earlier,
        deleteNotifications: async (ids: string[]) => void calls.push(`delete ${ids.join()}`),
        updateNotifications: async (u: { id: string; status: string }) => void calls.push(`${u.status} ${u.id}`),
        createNotifications: async () => {
          calls.push("create")
          return answer
        },
      },
    }
  }

  it("counts an answer without a message id as not sent where the channel needs one, and marks Medusa's row failed", async () => {
    const { notifications, calls } = module({ id: "noti_1", external_id: null })
    await expect(sendOnce(notifications, message, true)).rejects.toBeInstanceOf(NotDeliveredError)
    expect(calls).toEqual(["create", "failure noti_1"])
    // Where it does not need one, the same answer is sent.
    expect(await sendOnce(module({ id: "noti_2" }).notifications, message, false)).toBe("noti_2")
    expect(await sendOnce(module({ id: "noti_3", external_id: "re_1" }).notifications, message, true)).toBe("noti_3")
  })

  it("sends again a row that Medusa says succeeded but that carries no id where one is needed", async () => {
    const { notifications, calls } = module({ id: "noti_2", external_id: "re_2" }, [
      { id: "noti_1", status: "success", external_id: null },
    ])
    expect(await sendOnce(notifications, message, true)).toBe("noti_2")
    expect(calls).toEqual(["delete noti_1", "create"])
    const sent = module({ id: "noti_9" }, [{ id: "noti_1", status: "success", external_id: "re_1" }])
    expect(await sendOnce(sent.notifications, message, true)).toBe("noti_1")
    expect(sent.calls).toEqual([])
  })
})
