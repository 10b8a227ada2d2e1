import { resolvePluginOptions } from "../plugin-options"

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

  it("counts insights in the store's time zone, the app's own by default", () => {
    expect(resolvePluginOptions({}).insights).toEqual({
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
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
