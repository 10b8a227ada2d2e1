import { londonHours } from "../../../../packages/simulator/src"
import { type NotificationFacts, notificationData, safeLink } from "../notification-data"
import { NOTIFICATION_EVENTS, type LastmileNotificationEvent, audienceOf } from "../notification-events"
import { readOpeningHours } from "../../collection/store-hours"
import { renderNotification, renderSms, withTitle } from "../render-notification"
import { EN_GB } from "../catalogues/en-gb"
import { EN_US } from "../catalogues/en-us"
import { buildWords } from "../catalogues/catalogues"
import { fitsOneSms, smsShape } from "../sms-text"

// Tuesday 1 December 2026, 10:00 in London (GMT).
const now = new Date("2026-12-01T10:00:00Z")
const clock = { timeZone: "Europe/London", locale: "en-GB", now, phrases: EN_GB.phrases }

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
            instructions: "Collection desk at the back, by the fitting rooms.",
          }
        : null,
    collection:
      mode === "collection"
        ? {
            code: "ACE479",
            hold_days: 7,
            ready_at: "2026-11-29T10:00:00.000Z",
            collect_by: "2026-12-08T18:00:00.000Z",
            extensions: [],
            handed_over: null,
            wrong_codes: [],
          }
        : null,
    admin_url: "https://shop.example/app/orders/order_1",
    shop_name: "Lastmile Demo Shop",
    order_url: "https://shop.example/orders/order_1",
    items: [{ title: "Medusa Tee", quantity: 2 }],
  }
}

const render = (f: NotificationFacts, event: LastmileNotificationEvent, status: string | null = null) => {
  const waited = event === "collection_reminder" || event === "merchant_not_collected"
  const step = { event, at: now.toISOString(), status, since: waited ? f.collection?.ready_at : null }
  const data = withTitle(notificationData(f, step, clock))
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
    expect(text).toContain("In this parcel:\n2 × Medusa Tee")
    expect(text).toContain("Your order: https://shop.example/orders/order_1")
    expect(text.endsWith("Lastmile Demo Shop")).toBe(true)
    expect(data).toMatchObject({
      shop: { name: "Lastmile Demo Shop" },
      order: { url: "https://shop.example/orders/order_1" },
    })
    expect(data.items).toEqual([{ title: "Medusa Tee", quantity: 2 }])
    expect(html).toContain('<a href="https://track.example/LM123">https://track.example/LM123</a>')
  })

  it("writes the window in another zone and locale when told", () => {
    const f = facts("delivery")
    const data = notificationData(
      f,
      { event: "delivery_booked", at: now.toISOString(), status: null },
      { timeZone: "America/New_York", locale: "en-US", now, phrases: EN_US.phrases }
    )
    expect(data.window?.text).toBe("tomorrow (Wednesday, December 2) between 03:00 AM and 03:00 PM")
    expect(renderNotification(withTitle(data)).subject).toBe("Your order #1001 is scheduled for delivery")
  })

  it("writes UTC after the times when no zone of the store's is known", () => {
    const data = notificationData(
      facts("delivery"),
      { event: "delivery_booked", at: now.toISOString(), status: null },
      { ...clock, timeZone: "UTC", utc: true }
    )
    expect(data.window?.text).toBe("tomorrow (Wednesday 2 December) between 08:00 UTC and 20:00 UTC")
    expect(renderNotification(withTitle(data)).text).toContain("between 08:00 UTC and 20:00 UTC")
  })

  it("never states a window that has ended, and after a failed attempt only one the service gave since", () => {
    const f = facts("delivery")
    const later = new Date("2026-12-03T09:00:00Z")
    const out = notificationData(
      f,
      { event: "delivery_out_for_delivery", at: later.toISOString(), status: "OUT_FOR_DELIVERY" },
      { ...clock, now: later }
    )
    expect(out.window).toBeNull()
    expect(renderNotification(withTitle(out)).text).not.toContain("It should arrive")
    // Out again after a failed attempt: the booked window is not the truth any more, even while it lasts.
    const again = { event: "delivery_out_for_delivery" as const, at: now.toISOString(), status: "OUT_FOR_DELIVERY" }
    expect(notificationData(f, { ...again, after_problem_at: now.toISOString() }, clock).window).toBeNull()
    const given = { at: now.toISOString(), from: "2026-12-01T12:00:00Z", to: "2026-12-01T16:00:00Z" }
    const withNew = notificationData(
      { ...f, service_windows: [given] },
      { ...again, after_problem_at: "2026-12-01T09:00:00Z" },
      clock
    )
    expect(withNew.window?.text).toBe("today (Tuesday 1 December) between 12:00 and 16:00")
  })

  it("writes a name as one line of at most 60 characters, and none that carries a link or an address", () => {
    const f = facts("delivery")
    f.order.first_name = "Ada\n\nURGENT: your parcel is held, pay at https://evil.example/pay"
    const first = render(f, "delivery_booked")
    expect(first.data.customer.first_name).toBe("Ada")
    expect(first.text.startsWith("Hello Ada,\n\n")).toBe(true)
    expect(first.text).not.toContain("URGENT")
    f.order.first_name = "Pay at evil.example now"
    const linked = render(f, "collection_ready")
    expect(linked.data.customer).toMatchObject({ first_name: null, full_name: "Lovelace" })
    expect(linked.text).not.toContain("evil.example")
    expect(linked.text.startsWith("Hello,")).toBe(true)
    f.order.first_name = "x".repeat(200)
    expect(render(f, "delivery_booked").data.customer.first_name).toHaveLength(60)
    f.order.first_name = "mallory@evil.example"
    expect(render(f, "delivery_booked").data.customer.first_name).toBeNull()
  })

  it("writes a text message of one SMS with the tracking link", () => {
    const f = facts("delivery")
    f.task.tracking_url = `https://track.example/${"x".repeat(60)}`
    const { data } = render(f, "delivery_out_for_delivery")
    const sms = renderSms(data)!
    expect(sms).toContain(f.task.tracking_url)
    expect(sms.length).toBeLessThanOrEqual(160)
    expect(fitsOneSms(sms)).toBe(true)
    const ready = renderSms(render(facts("collection"), "collection_ready").data)!
    expect(ready).toBe(
      "Lastmile Demo Shop: Your order #1001 is ready to collect at Brixton store. Code ACE 479. Collect by Tue 8 Dec 18:00. Details: https://track.example/LM123"
    )
    // A store name that needs Unicode: 70 characters at most, or the words cut back to GSM-7's 160.
    const unicode = facts("collection")
    unicode.store!.name = "Łódź ★ Główna"
    const text = renderSms(render(unicode, "collection_ready").data)!
    const shape = smsShape(text)
    expect(shape.segments).toBe(1)
    expect(shape.characters).toBeLessThanOrEqual(shape.encoding === "UCS-2" ? 70 : 160)
    expect(text).toContain("https://track.example/LM123")
    expect(renderSms(render(facts("delivery"), "delivery_booked").data)).toBeNull()
  })

  it("writes in a supplied catalogue's words and the locale's dates, the default's for a locale it has none of", () => {
    const words = buildWords({
      "fr-FR": {
        delivery_booked: {
          subject: "Votre commande {order_number} est réservée",
          text: "{greeting}\n\nElle devrait arriver {window}.",
        },
        phrases: {
          greeting: "Bonjour {first_name},",
          tomorrow: "demain ({date})",
          window_same_day: "{day} entre {from} et {to}",
        },
      },
    })
    const f = facts("delivery")
    const data = withTitle(
      notificationData(
        f,
        { event: "delivery_booked", at: now.toISOString(), status: null },
        { ...clock, locale: "fr-FR", phrases: words.catalogues["fr-FR"].phrases }
      ),
      words
    )
    const french = renderNotification(data, words)
    expect(french.subject).toBe("Votre commande #1001 est réservée")
    expect(french.text).toBe("Bonjour Ada,\n\nElle devrait arriver demain (mercredi 2 décembre) entre 08:00 et 20:00.")
    expect(french.html).toContain('<html lang="fr-FR">')
    // A message the merchant did not write reads in the default words.
    expect(renderNotification({ ...data, event: "delivery_delivered" }, words).subject).toBe(
      "Your order #1001 has been delivered"
    )
    expect(renderNotification({ ...data, locale: "de-DE" }, words).subject).toBe(
      "Your order #1001 is booked for delivery"
    )
  })

  it("tells a collection where the store is, its hours, when it is ready, and what to bring", () => {
    const booked = render(facts("collection"), "collection_booked")
    expect(booked.subject).toBe("Your order #1001 will be ready to collect at Brixton store")
    expect(booked.text).toContain("It should be ready to collect from 14:00 today (Tuesday 1 December).")
    expect(booked.text).toContain("Where:\nBrixton store\n4 Electric Avenue, London SW9 8JX, United Kingdom")
    expect(booked.text).toContain("Opening hours:\nMonday to Saturday: 09:00–18:00\nSunday: 11:00–17:00")
    const ready = render(facts("collection"), "collection_ready")
    expect(ready.subject).toBe("Your order #1001 is ready to collect")
    expect(ready.text).toContain("Your collection code is ACE 479. Show it at the counter")
    expect(ready.text).toContain("Please collect it by 18:00 on Tuesday 8 December.")
    expect(ready.text).toContain("From the store: Collection desk at the back, by the fitting rooms.")
    expect(ready.text).toContain("bring your collection code and your order number, #1001.")
    expect(booked.text).toContain("From the store: Collection desk at the back")
    // The code is the shopper's once ready: never in the booked message, the merchant's alert or its bell.
    expect(booked.text).not.toContain("ACE")
    expect(render(facts("collection"), "merchant_not_collected").text).not.toContain("ACE")
    const reminder = render(facts("collection"), "collection_reminder")
    expect(reminder.subject).toBe("Reminder: your order #1001 is waiting for you at Brixton store")
    expect(reminder.data.waiting).toMatchObject({ for_text: "2 days", since_text: "10:00 on Sunday 29 November" })
    expect(reminder.text).toContain("Please collect it by 18:00 on Tuesday 8 December.")
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
    expect(text).toContain("Where: 10 Downing Street, London SW1A 2AA\n\nWhen: tomorrow (Wednesday 2 December)")
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
      expect(subject).not.toMatch(/[{}]/)
      expect(text).not.toMatch(/[{}]/)
      expect(text).toContain(data.order.name)
      const us = renderNotification({ ...data, locale: "en-US" })
      expect(us.subject).not.toMatch(/[{}]/)
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
