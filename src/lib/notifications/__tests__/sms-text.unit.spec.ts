import { fitSms, fitsOneSms, smsShape } from "../sms-text"

describe("a text message of one SMS", () => {
  const link = "https://track.example/LM123"

  it("counts GSM-7 up to 160 characters and Unicode up to 70", () => {
    expect(fitsOneSms("a".repeat(160))).toBe(true)
    expect(fitsOneSms("a".repeat(161))).toBe(false)
    expect(smsShape("ł".repeat(70))).toMatchObject({ encoding: "UCS-2", segments: 1 })
    expect(fitsOneSms("ł".repeat(71))).toBe(false)
    // An extended GSM-7 character takes two.
    expect(fitsOneSms("€".repeat(80))).toBe(true)
    expect(fitsOneSms("€".repeat(81))).toBe(false)
  })

  it("leaves out the lines it can spare, last first, then cuts the headline, never the link", () => {
    const lines = ["Your order #1001 is out for delivery.", "x".repeat(100), "Arriving today.", `Track: ${link}`]
    const fitted = fitSms(lines, [link], (line) => line.includes("#1001"))
    expect(fitted).toBe(`Your order #1001 is out for delivery. Arriving today. Track: ${link}`)
    const long = fitSms([`${"word ".repeat(40)}end #1001`, `Track: ${link}`], [link], (line) => line.includes("#1001"))
    expect(fitsOneSms(long)).toBe(true)
    expect(long.endsWith(`... Track: ${link}`)).toBe(true)
    expect(fitSms(["Shop:", "Your order #1001 is ready.", "y".repeat(150)], [], (l) => l.includes("#1001"))).toBe(
      "Shop: Your order #1001 is ready."
    )
  })
})
