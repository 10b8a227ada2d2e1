import {
  LastmileAuthenticationError,
  LastmileBookingOutcomeUnknownError,
  LastmileError,
  LastmileInvalidResponseError,
  LastmileRateLimitError,
  LastmileRejectedError,
  LastmileServerError,
  LastmileTimeoutError,
  LastmileUnreachableError,
  describeRefusal,
  isServiceOutage,
} from "../errors"

const op = { operation: "POST /task/quotes" }

describe("isServiceOutage", () => {
  it.each([
    ["a timeout", new LastmileTimeoutError("slow", 3000, op)],
    ["an unreachable service", new LastmileUnreachableError("refused", { ...op, beforeSend: true })],
    ["a 5xx", new LastmileServerError("boom", { ...op, status: 503 })],
    ["a 429", new LastmileRateLimitError("slow down", { ...op, status: 429, retryAfterMs: 1000 })],
  ])("is true for %s", (_name, error) => {
    expect(isServiceOutage(error)).toBe(true)
  })

  it.each([
    ["a 401", new LastmileAuthenticationError("bad key", { ...op, status: 401 })],
    ["a 403", new LastmileAuthenticationError("not allowed", { ...op, status: 403 })],
    ["a 422", new LastmileRejectedError("refused", { ...op, status: 422 })],
    ["a 404", new LastmileRejectedError("gone", { ...op, status: 404 })],
    ["an invalid response", new LastmileInvalidResponseError("odd", ["rates: expected array"], op)],
    ["a plain Error", new Error("timeout 503")],
    ["a string", "timeout"],
    ["undefined", undefined],
  ])("is false for %s", (_name, error) => {
    expect(isServiceOutage(error)).toBe(false)
  })

  it("decides by class and code, never by the message", () => {
    expect(isServiceOutage(new LastmileRejectedError("the service timed out (503)", { status: 400 }))).toBe(false)
    expect(isServiceOutage(new LastmileServerError("the API key was refused"))).toBe(true)
  })

  it("classifies an unsettled booking by what cut it short", () => {
    const byTimeout = new LastmileBookingOutcomeUnknownError("unknown", "order_1", 1, new LastmileTimeoutError("t", 1))
    const byOddAnswer = new LastmileBookingOutcomeUnknownError(
      "unknown",
      "order_1",
      1,
      new LastmileInvalidResponseError("odd", ["(root): not JSON"])
    )
    expect(isServiceOutage(byTimeout)).toBe(true)
    expect(isServiceOutage(byOddAnswer)).toBe(false)
  })
})

describe("describeRefusal", () => {
  const KEY = "lm_live_secret_key_123"

  it("names a refused key by its status and says what to check", () => {
    expect(describeRefusal(new LastmileAuthenticationError("x", { status: 401 }))).toBe(
      "the service refused the API key (401): check the provider's api_key"
    )
    expect(describeRefusal(new LastmileAuthenticationError("x", { status: 403 }))).toContain("(403)")
  })

  it("gives the service's own code and message of a refused request, shortened", () => {
    const body = JSON.stringify({ error: { code: "VALIDATION_ERROR", message: "customer.phoneNumber is invalid" } })
    expect(describeRefusal(new LastmileRejectedError("x", { status: 422, body }))).toBe(
      "the service refused the request (422): VALIDATION_ERROR: customer.phoneNumber is invalid"
    )
    const long = describeRefusal(new LastmileRejectedError("x", { status: 400, body: "no ".repeat(500) }))
    expect(long.length).toBeLessThan(260)
    expect(describeRefusal(new LastmileRejectedError("x", { status: 409 }))).toBe(
      "the service refused the request (409)"
    )
  })

  it("lists the issues of an answer in an unexpected shape", () => {
    const error = new LastmileInvalidResponseError("x", ["rates: expected array, received undefined"])
    expect(describeRefusal(error)).toBe(
      "the service answered in an unexpected shape: rates: expected array, received undefined"
    )
  })

  it("decides by code and status, not by the message, and never repeats a message that could hold the key", () => {
    const refused = new LastmileRejectedError(`key ${KEY} refused`, { status: 400, body: "[REDACTED] is not valid" })
    expect(describeRefusal(refused)).toBe("the service refused the request (400): [REDACTED] is not valid")
    expect(describeRefusal(new Error(`bad key ${KEY}`))).not.toContain(KEY)
    expect(describeRefusal(new LastmileAuthenticationError(`bad key ${KEY}`, { status: 401 }))).not.toContain(KEY)
  })

  it("describes the outage classes too", () => {
    expect(describeRefusal(new LastmileTimeoutError("x", 3000))).toContain("3000 ms")
    expect(describeRefusal(new LastmileServerError("x", { status: 502 }))).toContain("(502)")
    expect(describeRefusal(new LastmileUnreachableError("x"))).toContain("base_url")
    expect(describeRefusal(new LastmileRateLimitError("x", { status: 429 }))).toContain("(429)")
    expect(describeRefusal(new LastmileError("rejected", "x", { status: 418 }))).toContain("(418)")
  })
})

describe("the service's error text", () => {
  /** Line breaks, a right-to-left override, an isolate, a zero-width space, a NUL and a bell. */
  const HOSTILE = "line one\r\nline two\u202Eevil\u2066x\u2069\u200B\u0000\u0007"
  const UNSAFE = /[\r\n\u0000-\u001F\u202A-\u202E\u2066-\u2069\u200B]/

  it("is cleaned where the error is made: message, body and issues carry no line break, control or bidi character", () => {
    const body = JSON.stringify({ error: { code: "BAD\nCODE", message: HOSTILE } })
    const refused = new LastmileRejectedError(`POST /task/deliveries: the service answered 400: ${HOSTILE}`, {
      status: 400,
      body: `${body}\n${HOSTILE}`,
    })
    expect(refused.message).not.toMatch(UNSAFE)
    expect(refused.body).not.toMatch(UNSAFE)
    expect(refused.body).toContain("line one line two")
    const described = describeRefusal(refused)
    expect(described).not.toMatch(UNSAFE)
    expect(described).toContain("the service refused the request (400)")
    const odd = new LastmileInvalidResponseError(HOSTILE, [`rates.0.${HOSTILE}: Required`])
    expect(odd.issues.join(" ")).not.toMatch(UNSAFE)
    expect(describeRefusal(odd)).not.toMatch(UNSAFE)
    for (const error of [new LastmileServerError(HOSTILE, { body: HOSTILE }), new LastmileUnreachableError(HOSTILE)]) {
      expect(`${error.message} ${error.body ?? ""} ${describeRefusal(error)}`).not.toMatch(UNSAFE)
    }
  })

  it("is cleaned in the copy Medusa's workflow engine makes of the error, since the copy reads the same fields", () => {
    const refused = new LastmileRejectedError("x", { status: 422, body: `{"error":{"message":"${"a\\u202Eb"}"}}` })
    const copy = JSON.parse(JSON.stringify({ ...refused, code: refused.code })) as Record<string, unknown>
    expect(describeRefusal(copy)).not.toMatch(UNSAFE)
  })
})
