import { resolvePluginOptions } from "../plugin-options"
import { serverTimeZone } from "../../support/time-zone"

describe("plugin options", () => {
  it("has documented defaults", () => {
    const options = resolvePluginOptions({})
    expect(options).toMatchObject({
      bookingTrigger: "order_placed",
      pollIntervalSeconds: 300,
      pollMaxAgeDays: 14,
      pollBatchSize: 50,
      markReturnsReceived: false,
    })
  })

  it("names every bad option", () => {
    expect(() =>
      resolvePluginOptions({
        booking_trigger: "later" as "fulfillment",
        status_map: { DONE: "finished" as "delivered" },
        poll_batch_size: 0,
      })
    ).toThrow(
      /booking_trigger must be "order_placed" or "fulfillment".*status_map values must be one of awaiting, shipped, delivered, exception, cancelled.*poll_batch_size must be at least 1/
    )
  })

  it("sends every message by default: email to the shopper, the feed to the merchant, a reminder at half the hold", () => {
    const { notifications } = resolvePluginOptions({})
    expect(notifications).toMatchObject({
      enabled: true,
      channel: "email",
      merchantChannel: "feed",
      reminder: "half_hold",
      sendContent: true,
      timeZone: null,
      locale: null,
      smsChannel: null,
      merchantTo: [],
      shipmentsNoNotification: true,
    })
    expect(notifications.events.size).toBe(16)
    expect(notifications.templates.delivery_out_for_delivery).toBe("lastmile-delivery-out-for-delivery")
  })

  it("reads the notification settings, and false as off", () => {
    expect(resolvePluginOptions({ notifications: false }).notifications.enabled).toBe(false)
    const { notifications } = resolvePluginOptions({
      notifications: {
        channel: "sms",
        events: ["delivery_delivered", "merchant_booking_failed"],
        templates: { delivery_delivered: "d-123" },
        collection_reminder_after: "36h",
        time_zone: "Europe/Paris",
        locale: "en-US",
        status_events: { READY: "ready_for_collection" },
      },
    })
    expect(notifications).toMatchObject({ channel: "sms", reminder: 36 * 3_600_000, timeZone: "Europe/Paris" })
    expect([...notifications.events]).toEqual(["delivery_delivered", "merchant_booking_failed"])
    expect(notifications.templates.delivery_delivered).toBe("d-123")
    expect(notifications.templates.delivery_booked).toBe("lastmile-delivery-booked")
    expect(notifications.statusEvents.stepOf("ready", "collection")).toBe("ready_for_collection")
    expect(
      resolvePluginOptions({ notifications: { collection_reminder_after: false } }).notifications.reminder
    ).toBeNull()
  })

  it("names every bad notification setting", () => {
    const bad = {
      notifications: {
        channel: "",
        events: ["delivered"],
        collection_reminder_after: "soon",
        time_zone: "Mars/Olympus",
        locale: "not a locale!",
        status_events: { READY: "ready" },
      },
    } as unknown as Parameters<typeof resolvePluginOptions>[0]
    expect(() => resolvePluginOptions(bad)).toThrow(
      /notifications.channel must be a channel name.*notifications.events lists events among.*notifications.collection_reminder_after must be a duration.*notifications.time_zone must be an IANA time zone.*notifications.locale must be a locale.*notifications.status_events values must be one of/
    )
    expect(() =>
      resolvePluginOptions({ notifications: "yes" } as unknown as Parameters<typeof resolvePluginOptions>[0])
    ).toThrow(/notifications must be false or an object of settings/)
  })

  it("checks the merchant's words at boot: locales, messages, phrases and placeholders, one sentence each", () => {
    const text = {
      "fr-FR": {
        delivery_booked: { subject: "Commande {order_numbr}", text: "Bonjour {first_name" },
        delivery_shipped: { subject: "…" },
        phrases: { greeting: "Bonjour {name}," },
      },
      french: { delivery_booked: { subject: "x" } },
    }
    expect(() => resolvePluginOptions({ notifications: { text } as never })).toThrow(
      /notifications.text.fr-FR.delivery_booked.subject uses \{order_numbr\}, which it does not have; it may use \{shop_name\}.*notifications.text.fr-FR.delivery_booked.text has a \{ or \} that does not enclose a placeholder name.*notifications.text.fr-FR.delivery_shipped is not a message.*notifications.text.fr-FR.phrases.greeting uses \{name\}.*notifications.text.french: "french" is not a locale/
    )
    expect(() => resolvePluginOptions({ notifications: { locale: "de-DE" } })).toThrow(
      /notifications.locale is "de-DE", which has no words: add them under notifications.text\["de-DE"\]/
    )
    const good = resolvePluginOptions({
      notifications: {
        locale: "fr-FR",
        sms_channel: "sms",
        merchant_to: ["Ops@Shop.example"],
        order_url: "https://shop.example/orders/{order_id}",
        text: { "fr-FR": { delivery_booked: { subject: "Commande {order_number} réservée" } } },
      },
    }).notifications
    expect(good).toMatchObject({ locale: "fr-FR", smsChannel: "sms", merchantTo: ["ops@shop.example"] })
    expect(good.words.catalogues["fr-FR"].messages.delivery_booked.subject).toBe("Commande {order_number} réservée")
    expect(() =>
      resolvePluginOptions({
        notifications: { merchant_to: ["not an address"], order_url: "https://shop.example/orders" },
      })
    ).toThrow(
      /notifications.merchant_to lists email addresses.*notifications.order_url must be an http\(s\) link with \{order_id\}/
    )
  })

  it("counts insights in the store's time zone, the app's own by default", () => {
    expect(resolvePluginOptions({}).insights).toEqual({
      timeZone: serverTimeZone(),
      offerRetentionDays: 400,
      co2Unit: "kg",
    })
    expect(
      resolvePluginOptions({ insights: { time_zone: "Europe/London", offer_retention_days: 30, co2_unit: "g" } })
        .insights
    ).toEqual({ timeZone: "Europe/London", offerRetentionDays: 30, co2Unit: "g" })
    expect(() =>
      resolvePluginOptions({
        insights: { time_zone: "Mars/Olympus", offer_retention_days: 0, co2_unit: "t" as "kg" },
      })
    ).toThrow(
      /insights.time_zone must be a time zone name, like "Europe\/London".*insights.offer_retention_days must be at least 1.*insights.co2_unit must be "kg" or "g"/
    )
  })
})
