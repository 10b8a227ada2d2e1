import { editDifference, namedEdit } from "../order-edit"

describe("what an order edit changed in a booked delivery", () => {
  it("reads added, removed and changed quantities from the edit's actions, ignoring what names no line", () => {
    const difference = editDifference([
      { action: "ITEM_ADD", details: { reference_id: "line_cap", quantity: 2 } },
      { action: "ITEM_UPDATE", details: { reference_id: "line_mug", quantity_diff: -1 } },
      { action: "ITEM_UPDATE", details: { reference_id: "line_tee", quantity_diff: 3 } },
      { action: "ITEM_REMOVE", details: { reference_id: "line_hat", quantity: 1 } },
      { action: "SHIPPING_ADD", details: { reference_id: "sm_1" } },
      { action: "ITEM_ADD", details: { reference_id: 42, quantity: 1 } },
    ])
    expect(difference).toEqual({
      added: [
        { line_item_id: "line_cap", quantity: 2 },
        { line_item_id: "line_tee", quantity: 3 },
      ],
      removed: [
        { line_item_id: "line_mug", quantity: 1 },
        { line_item_id: "line_hat", quantity: 1 },
      ],
    })
  })

  it("names each line by its title and variant, by its id when it was not read, in words the merchant acts on", () => {
    const edit = namedEdit(
      { added: [{ line_item_id: "line_cap", quantity: 2 }], removed: [{ line_item_id: "line_gone", quantity: 1 }] },
      [{ id: "line_cap", title: "Cap", variant_title: "Blue" }],
      "1001"
    )
    expect(edit.added).toEqual([{ line_item_id: "line_cap", quantity: 2, title: "Cap – Blue" }])
    expect(edit.removed).toEqual([{ line_item_id: "line_gone", quantity: 1, title: "line_gone" }])
    expect(edit.message).toContain("task 1001")
    expect(edit.message).toContain("Added: 2 × Cap – Blue")
    expect(edit.message).toContain("Removed: 1 × line_gone")
  })
})
