import { londonHours } from "../../../../packages/simulator/src"
import { type NotificationFacts, notificationData, safeLink } from "../notification-data"
import { NOTIFICATION_EVENTS, type LastmileNotificationEvent, audienceOf } from "../notification-events"
import { readOpeningHours } from "../opening-hours"
import { renderNotification, withTitle } from "../render-notification"

// Tuesday 1 December 2026, 10:00 in London (GMT).
const now = new Date("2026-12-01T10:00:00Z")
const clock = { timeZone: "Europe/London", locale: "en-GB", now }

function facts(
  mode: "delivery" | "collection" | "return",
  overrides: Partial<NotificationFacts["task"]> = {}
): NotificationFacts {
  return {
    task: {
      id: "lmtask_1",
      kind: mode === "return" ? "return" : "delivery",
      mode,
      origin: mode === "return" ? "return" : "order",
      status: "booked",
      service_status: "NOT_STARTED",
      tracking_id: "LM123",
      tracking_url: "https://track.example/LM123",
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
      ...overrides,
    },
    order: {
      id: "order_1",
      display_id: 1001,
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      shipping_address: { address_1: "10 Downing Street", city: "London", postal_code: "SW1A 2AA", country_code: "gb" },
    },
    rate:
      mode === "collection"
        ? {
            code: "SVC_COL",
            name: "Brixton store",
            window: { from: "2026-12-01T14:00:00Z", to: "2026-12-01T18:00:00Z" },
          }
        : {
            code: "NEXT_DAY",
            name: "Next day delivery",
            window: { from: "2026-12-02T08:00:00Z", to: "2026-12-02T20:00:00Z" },
          },
    store:
      mode === "collection"
        ? {
            name: "Brixton store",
            address: { address_1: "4 Electric Avenue", city: "London", postal_code: "SW9 8JX", country_code: "gb" },
            hours: readOpeningHours(londonHours()),
          }
        : null,
    admin_url: "https://shop.example/app/orders/order_1",
  }
}

const render = (f: NotificationFacts, event: LastmileNotificationEvent, status: string | null = null) => {
  const data = withTitle(notificationData(f, { event, at: now.toISOString(), status }, clock, 2 * 86_400_000))
  return { data, ...renderNotification(data) }
}

describe("a message's data and words", () => {
  it("tells a delivery's window in the store's time, with the tracking link", () => {
    const { data, subject, text, html } = render(facts("delivery"), "delivery_booked")
    expect(subject).toBe("Your order #1001 is booked for delivery")
    expect(data).toMatchObject({
      title: subject,
      order: { id: "order_1", name: "#1001", email: "ada@example.com" },
      customer: { first_name: "Ada", full_name: "Ada Lovelace" },
      tracking: { code: "LM123", url: "https://track.example/LM123" },
      window: {
        from: "2026-12-02T08:00:00Z",
        text: "tomorrow (Wednesday 2 December) between 08:00 and 20:00",
      },
      time_zone: "Europe/London",
    })
    expect(text).toContain("Hello Ada,")
    expect(text).toContain("It should arrive tomorrow (Wednesday 2 December) between 08:00 and 20:00.")
    expect(text).toContain("Track your delivery: https://track.example/LM123")
    expect(html).toContain('<a href="https://track.example/LM123">Track your delivery</a>')
  })

  it("writes the window in another zone and locale when told", () => {
    const f = facts("delivery")
    const data = notificationData(
      f,
      { event: "delivery_booked", at: now.toISOString(), status: null },
      { timeZone: "America/New_York", locale: "en-US", now },
      null
    )
    expect(data.window?.text).toBe("tomorrow (Wednesday, December 2) between 03:00 AM and 03:00 PM")
  })

  it("tells a collection where the store is, its hours, when it is ready, and what to bring", () => {
    const booked = render(facts("collection"), "collection_booked")
    expect(booked.subject).toBe("Your order #1001 will be ready to collect at Brixton store")
    expect(booked.text).toContain("It should be ready to collect from 14:00 today (Tuesday 1 December).")
    expect(booked.text).toContain("Where:\nBrixton store\n4 Electric Avenue, London SW9 8JX, United Kingdom")
    expect(booked.text).toContain("Opening hours:\nMonday to Saturday: 09:00–18:00\nSunday: 11:00–17:00")
    const ready = render(facts("collection"), "collection_ready")
    expect(ready.subject).toBe("Your order #1001 is ready to collect")
    expect(ready.text).toContain("bring your order number, #1001, and the name on the order, Ada Lovelace.")
    const reminder = render(facts("collection"), "collection_reminder")
    expect(reminder.subject).toBe("Reminder: your order #1001 is waiting for you at Brixton store")
    expect(reminder.data.waiting).toMatchObject({ for_text: "2 days", since_text: "10:00 on Sunday 29 November" })
  })

  it("names a replacement and the words of each kind of problem", () => {
    const replacement = render(facts("delivery", { origin: "exchange" }), "delivery_out_for_delivery")
    expect(replacement.subject).toBe("The replacement for your order #1001 is out for delivery")
    expect(render(facts("delivery"), "delivery_problem", "FAILED_ATTEMPT").subject).toBe(
      "We could not deliver your order #1001"
    )
    expect(render(facts("delivery"), "delivery_problem", "DELAYED").subject).toBe("Your order #1001 is delayed")
    expect(render(facts("delivery"), "delivery_problem", "RETURNED_TO_SENDER").data.problem).toEqual({
      kind: "returning",
      status: "RETURNED_TO_SENDER",
    })
  })

  it("tells a return where the courier collects", () => {
    const { subject, text, data } = render(facts("return"), "return_booked")
    expect(subject).toBe("Your return for order #1001 is booked")
    expect(data.pickup_address?.text).toBe("10 Downing Street, London SW1A 2AA")
    expect(text).toContain(
      "The courier will collect your return for order #1001 from 10 Downing Street, London SW1A 2AA tomorrow"
    )
  })

  it("gives the merchant a title, a description the admin's bell shows, and the order's link", () => {
    const f = facts("delivery", { status: "needs_attention", last_error: "The rate is no longer offered" })
    const { data, text } = render(f, "merchant_booking_needs_attention")
    expect(data.audience).toBe("merchant")
    expect(data.title).toBe("Booking needs you: order #1001")
    expect(data.description).toContain("The rate is no longer offered")
    expect(data.description).toContain("https://shop.example/app/orders/order_1")
    expect(data.booking).toEqual({
      reason: "The rate is no longer offered",
      attempts: 1,
      retrying: false,
      next_attempt_at: null,
    })
    expect(text).not.toContain("Hello")
  })

  it("has words for every event", () => {
    for (const event of NOTIFICATION_EVENTS) {
      const mode =
        event.startsWith("collection") || event === "merchant_not_collected"
          ? "collection"
          : event.startsWith("return")
            ? "return"
            : "delivery"
      const { data, subject, text } = render(facts(mode), event, "FAILED_ATTEMPT")
      expect([event, data.audience]).toEqual([event, audienceOf(event)])
      expect(subject.length).toBeGreaterThan(10)
      expect(text).toContain(data.order.name)
    }
  })

  it("escapes the HTML and links only http(s) pages", () => {
    const f = facts("collection")
    f.store!.name = '<script>alert("x")</script>'
    f.task.tracking_url = "javascript:alert(1)"
    const { html, data } = render(f, "collection_ready")
    expect(html).not.toContain("<script>")
    expect(html).toContain("&lt;script&gt;")
    expect(data.tracking.url).toBeNull()
    expect(safeLink("https://user:pw@track.example/x")).toBeNull()
    expect(safeLink("http://track.example/x")).toBe("http://track.example/x")
  })

  it("reads the same when rebuilt later from the stored data", () => {
    const first = render(facts("delivery"), "delivery_booked")
    const stored = JSON.parse(JSON.stringify(first.data))
    expect(renderNotification(stored)).toEqual({ subject: first.subject, text: first.text, html: first.html })
  })
})
