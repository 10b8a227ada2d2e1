import {
  DELIVERY_NOTE_MAX_LENGTH,
  cleanDeliveryNote,
  createLastmileStorefront,
  deliveryNoteCounterText,
  deliveryNoteLength,
  deliveryNoteProblem,
  readChosenMethod,
} from "../index.js"
import { currentCollectionData, currentMethodData } from "./plugin-answers.js"
import { fakeSdk } from "./sdk.js"

describe("the note to the courier", () => {
  it("keeps the shopper's words, line breaks as spaces, without control or bidi characters", () => {
    expect(cleanDeliveryNote("  Gate code 4821\r\nLeave it   with no. 12\t ")).toBe(
      "Gate code 4821 Leave it with no. 12"
    )
    // A right-to-left override would show the gate code reversed to whoever reads it; a NUL or a bell means nothing.
    expect(cleanDeliveryNote("Code \u202e1284\u202c\u0000\u0007")).toBe("Code 1284")
    expect(cleanDeliveryNote("Café: knock twice 👋")).toBe("Café: knock twice 👋")
  })

  it("counts what is kept, and allows 280 characters but not 281", () => {
    expect(DELIVERY_NOTE_MAX_LENGTH).toBe(280)
    expect(deliveryNoteLength("x".repeat(280) + "\u202e\n")).toBe(280)
    expect(deliveryNoteProblem("x".repeat(280))).toBeNull()
    expect(deliveryNoteProblem("x".repeat(281))).toBe(
      "The note for the courier is 281 characters long: it can be at most 280."
    )
    // An emoji is one character, as the shopper sees it here.
    expect(deliveryNoteLength("👋".repeat(280))).toBe(280)
  })

  it("words the counter for a sighted shopper and a screen reader alike", () => {
    expect(deliveryNoteCounterText("")).toBe("You have 280 characters remaining")
    expect(deliveryNoteCounterText("x".repeat(279))).toBe("You have 1 character remaining")
    expect(deliveryNoteCounterText("x".repeat(282))).toBe("You have 2 characters too many")
  })

  it("is sent with a delivery as data.delivery_note, emptied to remove it, and never with a store", async () => {
    const { sdk, calls } = fakeSdk(() => ({ cart: { id: "cart_1" } }))
    const lastmile = createLastmileStorefront(sdk)
    await lastmile.choose("cart_1", { shippingOptionId: "so_next_day", rateCode: "ND-ECO", deliveryNote: "Gate 4821" })
    await lastmile.choose("cart_1", { shippingOptionId: "so_next_day", rateCode: null, deliveryNote: "" })
    await lastmile.choose("cart_1", { shippingOptionId: "so_next_day", rateCode: null })
    await lastmile.choose("cart_1", {
      kind: "collection",
      shippingOptionId: "so_camden",
      rateCode: null,
      deliveryNote: "Gate 4821",
    } as Parameters<typeof lastmile.choose>[1])
    expect(calls.map((call) => call.init?.body)).toEqual([
      { option_id: "so_next_day", data: { rate_code: "ND-ECO", delivery_note: "Gate 4821" } },
      { option_id: "so_next_day", data: { delivery_note: "" } },
      { option_id: "so_next_day" },
      { option_id: "so_camden" },
    ])
  })

  it("is read back from a delivery's method, and never from a collection's", () => {
    const delivery = readChosenMethod({
      shipping_methods: [{ shipping_option_id: "so_next_day", data: currentMethodData({ deliveryNote: "Gate 4821" }) }],
    })
    expect(delivery?.deliveryNote).toBe("Gate 4821")
    const collection = readChosenMethod({
      shipping_methods: [
        { shipping_option_id: "so_camden", data: { ...currentCollectionData(), deliveryNote: "Gate 4821" } },
      ],
    })
    expect(collection?.deliveryNote).toBeNull()
  })
})
