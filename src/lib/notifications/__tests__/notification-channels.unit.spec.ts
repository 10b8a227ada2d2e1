import { notificationChannelsIn } from "../notification-channels"

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
