import { StatusTable, nextTrackingState } from "../status-table"

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
