import { StatusTable } from "../../tracking/status-table"
import { notificationOptionsSchema, resolveNotificationOptions } from "../notification-options"
import { notificationProvidersIn } from "../notification-channels"
import { notificationsOverview, testMessages } from "../test-messages"

const options = (settings: Record<string, unknown>) =>
  resolveNotificationOptions(notificationOptionsSchema.parse(settings), new StatusTable())

describe("Settings → Lastmile's notifications", () => {
  const providers = notificationProvidersIn({
    modules: {
      notification: {
        options: {
          providers: [
            { resolve: "@medusajs/medusa/notification-local", id: "local", options: { channels: ["email", "feed"] } },
          ],
        },
      },
    },
  })

  it("says each channel's provider, and a channel with none", () => {
    const view = notificationsOverview(
      options({ sms_channel: "sms", merchant_to: ["ops@shop.example"] }),
      providers,
      () => false,
      {
        locales: ["fr-FR"],
        defaultLocale: "en-GB",
      }
    )
    expect(view.channels.map((c) => [c.role, c.channel, c.provider?.id ?? null])).toEqual([
      ["shopper_email", "email", "local"],
      ["shopper_sms", "sms", null],
      ["merchant_feed", "feed", "local"],
      ["merchant_email", "email", "local"],
    ])
    expect(view.locales).toEqual({ default: "en-GB", with_words: ["en-GB", "en-US"], store: ["fr-FR"] })
  })

  it("writes every message that is on, by email to the address and the four texts to the phone", async () => {
    const resolved = options({
      sms_channel: "sms",
      events: ["delivery_booked", "delivery_out_for_delivery", "merchant_booking_failed"],
    })
    const messages = await testMessages(
      resolved,
      resolved.words,
      { email: "me@shop.example", phone: "+447911123456" },
      new Date(),
      "My Shop"
    )
    expect(messages.map((m) => [m.via, m.message.channel, m.message.to, m.message.template])).toEqual([
      ["email", "email", "me@shop.example", "lastmile-delivery-booked"],
      ["email", "email", "me@shop.example", "lastmile-delivery-out-for-delivery"],
      ["sms", "sms", "+447911123456", "lastmile-delivery-out-for-delivery-sms"],
      ["merchant_email", "email", "me@shop.example", "lastmile-merchant-booking-failed"],
    ])
    expect(messages[0].message.content?.subject).toBe("Your order #1001 is booked for delivery")
    expect(messages[2].message.content?.text).toContain("My Shop:")
    expect(new Set(messages.map((m) => m.message.idempotency_key)).size).toBe(4)
  })
})
