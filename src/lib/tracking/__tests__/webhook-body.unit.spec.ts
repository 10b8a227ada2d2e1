/** What a webhook body must be before it is stored, and what is kept of one that is refused. */
import { MAX_WEBHOOK_DEPTH, checkWebhookBody, refusedBodySummary, taskReferenceOf } from "../webhook-payload"

const json = (value: unknown) => Buffer.from(JSON.stringify(value))

describe("a webhook body", () => {
  it("is a JSON object, with or without a content type naming JSON", () => {
    expect(checkWebhookBody(json({ taskId: 1 }), "application/json; charset=utf-8")).toEqual({
      ok: true,
      body: { taskId: 1 },
    })
    expect(checkWebhookBody(json({ taskId: 1 }), undefined).ok).toBe(true)
    expect(checkWebhookBody(json({ taskId: 1 }), "application/vnd.lastmile+json").ok).toBe(true)
  })

  it.each([
    [Buffer.from("taskId=1"), "application/x-www-form-urlencoded", 415, "must be JSON (Content-Type"],
    [Buffer.from("{taskId: 1"), "application/json", 400, "The webhook body must be JSON"],
    [json([1, 2]), "application/json", 400, "must be a JSON object"],
    [json({ taskId: "10\u00000" }), "application/json", 400, "a NUL character"],
    [json({ ["k\u0000"]: 1 }), "application/json", 400, "a key holds a NUL character"],
    [Buffer.from('{"taskId":"\\ud800x"}'), "application/json", 400, "a lone UTF-16 surrogate"],
  ])("is refused with a 4xx and its reason: %s", (raw, type, status, reason) => {
    const checked = checkWebhookBody(raw, type)
    expect(checked).toMatchObject({ ok: false, status })
    expect(!checked.ok && checked.reason).toContain(reason)
  })

  it("is refused, without overflowing anything, when nested 10,000 levels deep", () => {
    const deep = Buffer.from(`${"[".repeat(10_000)}${"]".repeat(10_000)}`)
    expect(checkWebhookBody(Buffer.from(`{"a":${deep.toString()}}`), undefined)).toMatchObject({
      ok: false,
      status: 400,
      reason: expect.stringContaining(`more than ${MAX_WEBHOOK_DEPTH} levels`),
    })
  })

  it("keeps a valid pair of surrogates (an emoji) and never names a task by a string it cannot store", () => {
    expect(checkWebhookBody(json({ note: "📦" }), undefined).ok).toBe(true)
    expect(taskReferenceOf({ taskId: "10\u00000", trackingId: "LM1" })).toEqual({ trackingId: "LM1" })
  })

  it("is kept, when refused, as its size and digest only", () => {
    const summary = refusedBodySummary(Buffer.from("secret stuff"), "The webhook body must be JSON")
    expect(summary).toEqual({
      refused: "The webhook body must be JSON",
      bytes: 12,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(JSON.stringify(summary)).not.toContain("secret")
  })
})
