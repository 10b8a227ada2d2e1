import { createHmac } from "node:crypto"
import { resolvePluginOptions } from "../../options/plugin-options"
import { StatusTable, nextTrackingState } from "../status-table"
import { signBody, signatureMatches, tokenMatches } from "../webhook-auth"
import { eventKeyOf, taskReferenceOf } from "../webhook-payload"

describe("status table", () => {
  const table = new StatusTable({ "Handed to neighbour": "delivered", DELAYED: "shipped" })

  it("maps common values, whatever their case or separators", () => {
    expect(table.phaseOf("NOT_STARTED")).toBe("awaiting")
    expect(table.phaseOf("in transit")).toBe("shipped")
    expect(table.phaseOf("out-for-delivery")).toBe("shipped")
    expect(table.phaseOf("Delivered")).toBe("delivered")
    expect(table.phaseOf("CANCELLED")).toBe("cancelled")
    expect(table.phaseOf("FAILED_ATTEMPT")).toBe("exception")
  })

  it("lets the merchant add and override values, and knows nothing else", () => {
    expect(table.phaseOf("HANDED_TO_NEIGHBOUR")).toBe("delivered")
    expect(table.phaseOf("DELAYED")).toBe("shipped")
    expect(table.phaseOf("TELEPORTED")).toBeNull()
  })

  it("never moves backwards, and exceptions and unknown values keep the state", () => {
    expect(nextTrackingState("awaiting", "shipped")).toBe("shipped")
    expect(nextTrackingState("awaiting", "delivered")).toBe("delivered")
    expect(nextTrackingState("delivered", "shipped")).toBe("delivered")
    expect(nextTrackingState("shipped", "awaiting")).toBe("shipped")
    expect(nextTrackingState("shipped", "exception")).toBe("shipped")
    expect(nextTrackingState("shipped", null)).toBe("shipped")
    expect(nextTrackingState("shipped", "cancelled")).toBe("cancelled")
    expect(nextTrackingState("delivered", "cancelled")).toBe("delivered")
  })
})

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

describe("webhook authentication", () => {
  it("compares tokens whatever their length, and refuses a missing side", () => {
    expect(tokenMatches("whsec_test_0123456789abcdef", "whsec_test_0123456789abcdef")).toBe(true)
    expect(tokenMatches("whsec_test_0123456789abcdeF", "whsec_test_0123456789abcdef")).toBe(false)
    expect(tokenMatches("short", "whsec_test_0123456789abcdef")).toBe(false)
    expect(tokenMatches(undefined, "whsec_test_0123456789abcdef")).toBe(false)
    expect(tokenMatches("anything", undefined)).toBe(false)
  })

  const secret = "signing_secret_0123456789"
  const body = Buffer.from('{"taskId":1001}')
  const digest = createHmac("sha256", secret).update(body).digest()

  it("accepts the HMAC of the raw body as hex or base64, with or without a prefix", () => {
    expect(signatureMatches(body, signBody(body, secret), secret)).toBe(true)
    expect(signatureMatches(body, digest.toString("hex"), secret)).toBe(true)
    expect(signatureMatches(body, digest.toString("base64"), secret)).toBe(true)
    expect(signatureMatches(body, `v1=${digest.toString("base64url")}`, secret)).toBe(true)
    expect(signatureMatches(body, `sha256=deadbeef, ${digest.toString("hex")}`, secret)).toBe(true)
  })

  it("refuses a signature of another body or secret, or none", () => {
    expect(signatureMatches(Buffer.from('{"taskId":1002}'), signBody(body, secret), secret)).toBe(false)
    expect(signatureMatches(body, signBody(body, "another_secret_0123456"), secret)).toBe(false)
    expect(signatureMatches(body, undefined, secret)).toBe(false)
    expect(signatureMatches(body, "sha256=", secret)).toBe(false)
  })
})

describe("webhook payload", () => {
  it("finds the task however the body names it", () => {
    expect(taskReferenceOf({ taskId: 1001 })).toEqual({ taskId: "1001" })
    expect(taskReferenceOf({ data: { task: { id: "1001", trackingId: "LM1" } } })).toEqual({ trackingId: "LM1" })
    expect(taskReferenceOf({ task: { id: 7 } })).toEqual({ taskId: "7" })
    expect(taskReferenceOf({ event: "x", payload: { merchant_order_id: "order_1" } })).toEqual({
      merchantOrderId: "order_1",
    })
    expect(taskReferenceOf({ status: { taskId: 5, value: "DELIVERED" } })).toEqual({ taskId: "5" })
    expect(taskReferenceOf({ hello: "world" })).toEqual({})
    expect(taskReferenceOf([1, 2])).toEqual({})
  })

  it("keys events by the service's event id, else by the body's hash", () => {
    expect(eventKeyOf({ eventId: "evt_1", taskId: 1 }, Buffer.from("a"))).toBe("id:evt_1")
    const a = eventKeyOf({ taskId: 1 }, Buffer.from('{"taskId":1}'))
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(eventKeyOf({ taskId: 1 }, Buffer.from('{"taskId":1}'))).toBe(a)
    expect(eventKeyOf({ id: 1 }, Buffer.from('{"id":1}'))).toMatch(/^sha256:/)
  })
})
