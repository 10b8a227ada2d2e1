import { normalisePhoneNumber } from "../phone-number"

describe("normalisePhoneNumber", () => {
  it("turns a locally written number into international format using the address's country", () => {
    expect(normalisePhoneNumber("07911 123456", "gb")).toEqual({ ok: true, e164: "+447911123456" })
    expect(normalisePhoneNumber("+44 20 7946 0958", "us")).toEqual({ ok: true, e164: "+442079460958" })
  })

  it("says whether the number is missing or unusable", () => {
    expect(normalisePhoneNumber("  ", "gb")).toEqual({ ok: false, reason: "missing" })
    expect(normalisePhoneNumber("12345", "gb")).toEqual({ ok: false, reason: "invalid" })
  })
})
