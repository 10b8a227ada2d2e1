import { StatusTable } from "../../tracking/status-table"
import { notificationOptionsSchema, resolveNotificationOptions } from "../notification-options"
import { type NotifyRow, type OutgoingMessage, notifyPass } from "../notify-pass"
import type { NotificationFacts } from "../notification-data"

const NOW = new Date("2026-12-01T10:00:00Z")

const row = (): NotifyRow => ({
  id: "lmtask_1",
  mode: "delivery",
  status: "booked",
  attempts: 1,
  booked_at: "2026-12-01T09:00:00Z",
  tracking_state: "shipped",
  service_status: "OUT_FOR_DELIVERY",
  status_history: { entries: [{ value: "OUT_FOR_DELIVERY", at: "2026-12-01T09:50:00Z", source: "webhook" }] },
  cancellation: null,
  notifications: null,
  notify_at: null,
})

const facts = (order: Partial<NotificationFacts["order"]> = {}, quiet: NotificationFacts["quiet"] = null) =>
  ({
    task: {
      id: "lmtask_1",
      kind: "delivery",
      mode: "delivery",
      origin: "order",
      status: "booked",
      service_status: "OUT_FOR_DELIVERY",
      tracking_id: "LM1",
      tracking_url: "https://track.example/LM1",
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
    },
    order: {
      id: "order_1",
      display_id: 1001,
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      shipping_address: { country_code: "gb" },
      phone: "07911 123456",
      locale: "en-US",
      ...order,
    },
    rate: null,
    store: null,
    admin_url: "/app/orders/order_1",
    quiet,
  }) as NotificationFacts

async function pass(f: NotificationFacts, input = {}) {
  const sent: OutgoingMessage[] = []
  const options = resolveNotificationOptions(
    notificationOptionsSchema.parse({ sms_channel: "sms", time_zone: "Europe/London" }),
    new StatusTable()
  )
  const result = await notifyPass(
    row(),
    options,
    NOW,
    {
      canNotifyOn: () => true,
      readFacts: async () => f,
      send: async (m) => {
        sent.push(m)
        return `noti_${sent.length}`
      },
    },
    input
  )
  return { ...result, sent }
}

describe("one pass over a task's messages", () => {
  it("sends a step by email and by text, in the order's language, the text to the phone in E.164", async () => {
    const { sent, outcome } = await pass(facts())
    expect(outcome.sent).toEqual(["delivery_out_for_delivery", "delivery_out_for_delivery|sms"])
    expect(sent.map((m) => [m.channel, m.to, m.idempotency_key])).toEqual([
      ["email", "ada@example.com", "lastmile:lmtask_1:delivery_out_for_delivery"],
      ["sms", "+447911123456", "lastmile:lmtask_1:delivery_out_for_delivery|sms"],
    ])
    expect(sent[0].data.locale).toBe("en-US")
    expect(sent[1].content).toEqual({ text: expect.stringContaining("https://track.example/LM1") })
  })

  it("tells the shopper nothing where the merchant said no_notification, and records why", async () => {
    const { sent, update } = await pass(facts({}, "order"))
    expect(sent).toEqual([])
    expect(update?.notifications.skipped.delivery_out_for_delivery?.reason).toBe(
      "the merchant turned notifications off for the order (no_notification)"
    )
    const fulfillment = await pass(facts(), { fulfillmentQuiet: true })
    expect(fulfillment.sent).toEqual([])
    expect(fulfillment.update?.notifications.quiet).toEqual({ source: "fulfillment", at: NOW.toISOString() })
  })

  it("skips the text of an order without a phone a text can go to, and still sends the email", async () => {
    const { outcome, update } = await pass(facts({ phone: "123" }))
    expect(outcome.sent).toEqual(["delivery_out_for_delivery"])
    expect(update?.notifications.skipped["delivery_out_for_delivery|sms"]?.reason).toBe(
      "the order has no phone number a text can go to (invalid)"
    )
  })
})
