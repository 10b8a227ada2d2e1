import { deliveryUnitOf, fulfillmentLines } from "../delivery-unit"

const order = { id: "order_1", display_id: 1001 }
const exchange = { id: "oexc_1", kind: "exchange" as const, item_ids: ["line_mug"] }
const claim = { id: "claim_1", kind: "claim" as const, item_ids: ["line_cap"] }

describe("which delivery of an order a fulfillment is", () => {
  it("is the order's own until that is booked", () => {
    expect(
      deliveryUnitOf({ order, lineIds: ["line_tee"], replacements: [exchange], orderDeliveryBooked: false })
    ).toEqual({ origin: "order", merchantOrderId: "order_1", merchantOrderName: "#1001" })
  })

  it("is a replacement's own, under its exchange's or claim's id, telling the courier what it replaces", () => {
    const base = { order, replacements: [claim, exchange], orderDeliveryBooked: true }
    expect(deliveryUnitOf({ ...base, lineIds: ["line_mug"] })).toEqual({
      origin: "exchange",
      merchantOrderId: "oexc_1",
      merchantOrderName: "Replacement for #1001",
    })
    expect(deliveryUnitOf({ ...base, lineIds: ["line_cap"] })).toMatchObject({
      origin: "claim",
      merchantOrderId: "claim_1",
    })
  })

  it("gives items shipped separately after the booking a reference of their own, the same for the same items", () => {
    const base = { order, replacements: [], orderDeliveryBooked: true }
    const first = deliveryUnitOf({ ...base, lineIds: ["line_b", "line_a"] })
    expect(first.origin).toBe("part")
    expect(first.merchantOrderId).toMatch(/^order_1~[0-9a-f]{10}$/)
    expect(deliveryUnitOf({ ...base, lineIds: ["line_a", "line_b"] }).merchantOrderId).toBe(first.merchantOrderId)
    expect(deliveryUnitOf({ ...base, lineIds: ["line_a"] }).merchantOrderId).not.toBe(first.merchantOrderId)
  })
})

describe("the basket of a fulfillment", () => {
  const lines = [
    { id: "line_tee", variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 2 },
    { id: "line_poster", variant_id: "variant_poster", variant_sku: "DEMO-POSTER", quantity: 1 },
  ]

  it("is the lines the fulfillment ships, each as its variant, never another profile's line", () => {
    expect(fulfillmentLines([{ line_item_id: "line_tee", quantity: 1 }], lines)).toEqual([
      { id: "line_tee", variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 1 },
    ])
  })

  it("counts a kit's line once, at the smallest of its inventory items' quantities", () => {
    const kit = [
      { line_item_id: "line_tee", quantity: "4" },
      { line_item_id: "line_tee", quantity: { toString: () => "2" } },
    ]
    expect(fulfillmentLines(kit, lines)).toEqual([expect.objectContaining({ id: "line_tee", quantity: 2 })])
  })
})
