import { missingChannelWarnings, notificationChannelsIn } from "../notification-channels"

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
