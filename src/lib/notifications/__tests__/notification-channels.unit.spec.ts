import {
  missingChannelWarnings,
  notificationChannelsIn,
  notificationProvidersIn,
  requiresMessageId,
  timeZoneWarning,
} from "../notification-channels"

describe("the channels the app can notify on", () => {
  it("lists each provider's channels, as Medusa's loader reads them", () => {
    const config = {
      modules: {
        notification: {
          resolve: "@medusajs/medusa/notification",
          options: {
            providers: [
              { resolve: "@medusajs/medusa/notification-local", id: "local", options: { channels: ["email"] } },
              { resolve: "@medusajs/medusa/notification-local", id: "feed", options: { channels: ["feed", "sms"] } },
            ],
          },
        },
      },
    }
    expect([...notificationChannelsIn(config)].sort()).toEqual(["email", "feed", "sms"])
  })

  it("counts Medusa Cloud's email, and nothing when the module is absent or disabled", () => {
    const cloud = { api_key: "k", endpoint: "https://e", environment_handle: "h" }
    expect([...notificationChannelsIn({ modules: { notification: { options: { providers: [], cloud } } } })]).toEqual([
      "email",
    ])
    expect(notificationChannelsIn({ modules: {} }).size).toBe(0)
    expect(notificationChannelsIn({ modules: { notification: false } }).size).toBe(0)
    expect(
      notificationChannelsIn({
        modules: { notification: { disable: true, options: { providers: [{ options: { channels: ["email"] } }] } } },
      }).size
    ).toBe(0)
  })
})

describe("the channels said missing at boot", () => {
  const on = { enabled: true, channel: "email", merchantChannel: "feed" }

  it("names each audience whose channel has no provider, and nothing when every one has", () => {
    expect(missingChannelWarnings(on, new Set(["email", "feed"]))).toEqual([])
    const [shopper, ...rest] = missingChannelWarnings(on, new Set(["feed"]))
    expect(rest).toEqual([])
    expect(shopper).toMatch(/no notification provider handles the "email" channel, so shoppers get no messages/)
    expect(missingChannelWarnings(on, new Set())).toEqual([
      expect.stringContaining("shoppers get no messages"),
      expect.stringContaining("the merchant's alerts"),
    ])
  })

  it("says nothing when messages are off", () => {
    expect(missingChannelWarnings({ ...on, enabled: false }, new Set())).toEqual([])
  })
})

describe("whether a provider's answer must carry a message id", () => {
  const config = {
    modules: {
      notification: {
        options: {
          providers: [
            { resolve: "@medusajs/medusa/notification-local", id: "local", options: { channels: ["feed"] } },
            { resolve: "@medusajs/medusa/notification-sendgrid", id: "sendgrid", options: { channels: ["email"] } },
            { resolve: "./src/modules/resend", id: "resend", options: { channels: ["email-resend"], name: "Resend" } },
            { resolve: "./src/modules/twilio-sms", id: "twilio", options: { channels: ["sms"] } },
          ],
        },
      },
    },
  }
  const providers = notificationProvidersIn(config)

  it("names each channel's provider as the app registered it", () => {
    expect(providers.get("email-resend")).toEqual({ id: "resend", resolve: "./src/modules/resend", name: "Resend" })
    expect(providers.get("sms")?.id).toBe("twilio")
  })

  it("asks every provider but Medusa's local and SendGrid ones (which never give one) by default, or what the option says", () => {
    const required = (channel: string, option: boolean | string[] | null = null) =>
      requiresMessageId(channel, option, providers.get(channel))
    expect(["feed", "email", "email-resend", "sms"].map((c) => required(c))).toEqual([false, false, true, true])
    expect(required("feed", true)).toBe(true)
    expect(required("sms", false)).toBe(false)
    expect(required("email", ["email"])).toBe(true)
    expect(required("sms", ["email"])).toBe(false)
  })
})

describe("the boot log's other warnings", () => {
  it("names the SMS channel with no provider, and the time zone option when it is not set", () => {
    const on = { enabled: true, channel: "email", merchantChannel: "feed", smsChannel: "sms" }
    expect(missingChannelWarnings(on, new Set(["email", "feed"]))).toEqual([
      expect.stringContaining('no notification provider handles the "sms" channel (notifications.sms_channel)'),
    ])
    expect(timeZoneWarning({ enabled: true, timeZone: null })).toMatch(/notifications.time_zone is not set.*UTC/)
    expect(timeZoneWarning({ enabled: true, timeZone: "Europe/London" })).toBeNull()
  })
})
