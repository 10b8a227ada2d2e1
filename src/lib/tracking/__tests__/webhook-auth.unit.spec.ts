import { createHmac } from "node:crypto"
import { signBody, signatureMatches, tokenMatches } from "../webhook-auth"

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
