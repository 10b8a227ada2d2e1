/**
 * The note to the courier as a choice carries it: what is kept, what is refused and why, and that the server's rules
 * are the storefront package's, which a storefront's counter runs (decision 62).
 */
import {
  DELIVERY_NOTE_MAX_LENGTH as PACKAGE_MAX,
  cleanDeliveryNote as packageClean,
} from "../../../../packages/storefront/src/delivery-note"
import {
  DELIVERY_NOTE_MAX_LENGTH,
  cleanDeliveryNote,
  deliveryNoteFor,
  heldDeliveryNote,
  readDeliveryNote,
} from "../delivery-note"
import { deliveryNoteView } from "../../booking/task-view"

const delivery = (deliveryNote?: string) => ({ data: { provider: "lastmile", kind: "delivery", deliveryNote } })
const collection = { data: { provider: "lastmile", kind: "collection", store: { name: "Camden" } } }

describe("the note to the courier", () => {
  it("keeps 280 characters, and refuses 281 naming the field and the limit", () => {
    expect(readDeliveryNote({ delivery_note: "x".repeat(280) }, "delivery")).toEqual({ note: "x".repeat(280) })
    expect(readDeliveryNote({ delivery_note: "x".repeat(281) }, "delivery")).toEqual({
      problem: "delivery_note is 281 characters long: a note to the courier can be at most 280 characters.",
    })
  })

  it("counts and keeps the note without control or bidi characters, line breaks as spaces", () => {
    const sneaky = `Gate \u202e4821\u202c\r\nno. 12\u0000${"x".repeat(264)}\u200f\u2066`
    expect(readDeliveryNote({ delivery_note: sneaky }, "delivery")).toEqual({
      note: `Gate 4821 no. 12${"x".repeat(264)}`,
    })
  })

  it("keeps the cart's note when a choice says nothing of it, and removes it when emptied", () => {
    expect(readDeliveryNote({ rate_code: "ND-ECO" }, "delivery")).toEqual({ keep: true })
    expect(readDeliveryNote({ delivery_note: "  \n " }, "delivery")).toEqual({ note: null })
    expect(readDeliveryNote({ delivery_note: null }, "delivery")).toEqual({ note: null })
    const methods = [collection, delivery("Leave with no. 12")]
    expect(deliveryNoteFor({ keep: true }, methods)).toBe("Leave with no. 12")
    expect(deliveryNoteFor({ note: null }, methods)).toBeNull()
    expect(heldDeliveryNote([collection])).toBeNull()
  })

  it("refuses what is not text, and a note with a store (no courier reads it)", () => {
    expect(readDeliveryNote({ delivery_note: 4821 }, "delivery")).toMatchObject({
      problem: expect.stringContaining("delivery_note must be text"),
    })
    expect(readDeliveryNote({ delivery_note: "Gate 4821" }, "collection")).toMatchObject({
      problem: expect.stringContaining("a collection from a store has no courier"),
    })
    expect(readDeliveryNote({ delivery_note: "" }, "collection")).toEqual({ note: null })
  })

  it("follows the storefront package's rules to the letter, so its counter and the server agree", () => {
    expect(DELIVERY_NOTE_MAX_LENGTH).toBe(PACKAGE_MAX)
    const samples = [
      "  Gate code 4821\r\nLeave it   with no. 12\t ",
      "Code \u202e1284\u202c\u0000\u0007 \u2028next line",
      "Café 👋 \u061cnote\u200e",
      "e\u0301 composed",
    ]
    for (const sample of samples) {
      expect(cleanDeliveryNote(sample)).toBe(packageClean(sample))
    }
  })
})

describe("the note as the merchant sees it", () => {
  const row = (quoted_rate: unknown, status = "booked") => ({
    kind: "delivery" as const,
    origin: "order" as const,
    status: status as "booked",
    quoted_rate,
  })

  it("says whether the booking sent it, the service refused it, or it was not sent", () => {
    const methods = [delivery("Gate 4821")]
    expect(deliveryNoteView(methods, [row({ delivery_note: "sent" })], true)).toEqual({
      text: "Gate 4821",
      to_service: "sent",
      send_enabled: true,
    })
    expect(deliveryNoteView(methods, [row({ delivery_note: "refused" })], true)?.to_service).toBe("refused")
    expect(deliveryNoteView(methods, [row({ rate_code: "ND" })], false)?.to_service).toBe("not_sent")
    expect(deliveryNoteView(methods, [row(null, "pending")], false)?.to_service).toBe("not_booked")
    expect(deliveryNoteView(methods, [], false)?.to_service).toBe("not_booked")
  })

  it("is nothing without a note, and cleaned again when a row holds one written by hand", () => {
    expect(deliveryNoteView([delivery()], [], true)).toBeNull()
    expect(deliveryNoteView([collection], [], true)).toBeNull()
    expect(deliveryNoteView([delivery("Gate\u202e 4821")], [], true)?.text).toBe("Gate 4821")
  })
})
