import { describeOrderTracking } from "../tracking-text.js"
import { readOrderTracking } from "../tracking.js"
import { safeHttpUrl } from "../safe-url.js"
import { booked, order } from "./orders.js"

describe("safeHttpUrl", () => {
  it("keeps an absolute http: or https: link", () => {
    expect(safeHttpUrl("https://track.example.com/LM-4242?x=1")).toBe("https://track.example.com/LM-4242?x=1")
    expect(safeHttpUrl(" http://track.example.com/a ")).toBe("http://track.example.com/a")
  })

  it.each([
    "javascript:alert(document.cookie)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "//track.example.com/LM-4242",
    "/orders/1",
    "track.example.com/LM-4242",
    "",
  ])("drops %j", (value) => {
    expect(safeHttpUrl(value)).toBeNull()
  })

  it("drops what is not text", () => {
    expect([safeHttpUrl(null), safeHttpUrl(42), safeHttpUrl({ href: "https://a.example" })]).toEqual([null, null, null])
  })
})

describe("the tracking link", () => {
  it("links the service's page", () => {
    const tracking = readOrderTracking(order(undefined, [booked()]))!
    expect(describeOrderTracking(tracking).link).toEqual({
      href: "https://track.example.com/LM-4242",
      text: "Track your delivery",
    })
  })

  it("never makes a link of a stored javascript: URL, and still shows the code", () => {
    const tracking = readOrderTracking(
      order(undefined, [booked({ trackingUrl: "javascript:alert(document.cookie)" })])
    )!
    expect(tracking.trackingUrl).toBeNull()
    const words = describeOrderTracking(tracking)
    expect(words.link).toBeNull()
    expect(words.codeText).toBe("Tracking code LM-4242")
  })

  it("checks a tracking built by the app as well", () => {
    const tracking = readOrderTracking(order(undefined, [booked()]))!
    expect(describeOrderTracking({ ...tracking, trackingUrl: "javascript:alert(1)" }).link).toBeNull()
    expect(describeOrderTracking({ ...tracking, trackingUrl: "data:text/html,x" }).link).toBeNull()
  })
})
