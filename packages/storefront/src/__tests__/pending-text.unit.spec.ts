import type { LastmileBookingState } from "../contract.js"
import { EMAIL_WHEN_BOOKED_TEXT, LASTMILE_PENDING_TEXT, describeOrderTracking } from "../tracking-text.js"
import { readOrderTracking } from "../tracking.js"
import { COLLECTION, order } from "./orders.js"

const pendingText = (state: LastmileBookingState | null, options = {}, books_on = "order_placed" as const) =>
  describeOrderTracking(
    readOrderTracking(order(), state ? { order_id: "order_1", booking: { state, books_on } } : null)!,
    options
  ).statusText

describe("a booking not made yet, in words that stay true", () => {
  it("says where it stands: under way, taking longer, or waiting for the shop", () => {
    expect(pendingText(null)).toBe(LASTMILE_PENDING_TEXT.delivery.booking)
    expect(pendingText("booking")).toBe(
      "We are booking your delivery with our courier. The tracking link shows here once it is booked."
    )
    expect(pendingText("retrying")).toMatch(/^Booking your delivery is taking longer than usual\. We keep trying/)
    expect(pendingText("needs_attention")).toMatch(/^The shop needs to check your delivery before it can be booked\./)
    expect(
      describeOrderTracking(
        readOrderTracking(order(), { order_id: "order_1", booking: { state: "not_started", books_on: "fulfillment" } })!
      ).statusText
    ).toBe("Your delivery is booked when the shop sends your order. The tracking link shows here then.")
  })

  it("promises no time, and an email only when the storefront says the shop sends one", () => {
    const said = Object.values(LASTMILE_PENDING_TEXT)
      .flatMap((texts) => Object.values(texts))
      .join(" ")
    expect(said).not.toMatch(/shortly|soon|minutes|email/i)
    expect(pendingText("needs_attention")).not.toContain(EMAIL_WHEN_BOOKED_TEXT)
    expect(pendingText("needs_attention", { emailsWhenBooked: true })).toMatch(/We will email you when it is booked\.$/)
    expect(pendingText("booking", { emailsWhenBooked: true })).not.toContain(EMAIL_WHEN_BOOKED_TEXT)
  })

  it("promises no window or readiness while the booking is retried or waits for the shop", () => {
    const waiting = describeOrderTracking(
      readOrderTracking(order(), {
        order_id: "order_1",
        booking: { state: "needs_attention", books_on: "order_placed" },
      })!
    )
    expect([waiting.windowText, waiting.details]).toEqual([null, null])
    const underWay = describeOrderTracking(
      readOrderTracking(order(), { order_id: "order_1", booking: { state: "booking", books_on: "order_placed" } })!,
      { locale: "en-GB", timeZone: "Europe/London", now: new Date("2026-07-24T09:00:00.000Z") }
    )
    expect([underWay.windowText, underWay.details]).toEqual(["Tomorrow, 12:00–22:00", "By cargo bike"])
    const collection = describeOrderTracking(
      readOrderTracking(order(COLLECTION), {
        order_id: "order_1",
        booking: { state: "retrying", books_on: "order_placed" },
      })!
    )
    // Where the store is still holds; when the order is ready there is not known until it is booked.
    expect([collection.readiness, collection.storeAddress]).toEqual([null, "12 Camden High St, London, NW1 0JH"])
  })

  it("says a collection's in a collection's words", () => {
    const collection = readOrderTracking(order(COLLECTION), {
      order_id: "order_1",
      booking: { state: "needs_attention", books_on: "order_placed" },
    })!
    expect(describeOrderTracking(collection).statusText).not.toMatch(/deliver|courier/i)
  })

  it("reads an order cancelled before its booking as canceled", () => {
    const tracking = readOrderTracking(order(), {
      order_id: "order_1",
      booking: { state: "cancelled", books_on: "order_placed" },
    })!
    expect(tracking.status).toBe("canceled")
  })
})
