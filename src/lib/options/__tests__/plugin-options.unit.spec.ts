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
})
