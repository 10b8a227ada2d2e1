import { buildFulfillmentOptions, deliveryOptionId } from "../fulfillment-options"

describe("fulfillment options", () => {
  it("offers each delivery type, collection and return, with kebab-case ids", () => {
    const options = buildFulfillmentOptions(["NEXT_DAY", "SAME_DAY_EVENING"])
    expect(options.map((o) => o.id)).toEqual([
      "lastmile-next-day",
      "lastmile-same-day-evening",
      "lastmile-collection",
      "lastmile-return",
    ])
    expect(deliveryOptionId("NEXT_DAY")).toBe("lastmile-next-day")
  })
})
