/**
 * What a webhook body must be before it is stored (decision 14): JSON, an object, at most 32 levels deep, and text
 * PostgreSQL can store; refused with a 4xx and the reason otherwise.
 */
import { createHash } from "node:crypto"

export const MAX_WEBHOOK_DEPTH = 32

export type CheckedBody =
  | { ok: true; body: Record<string, unknown> }
  | {
      ok: false
      status: 400 | 415
      reason: string
      /** The parsed body when it was JSON (for finding which task it names), else undefined. */
      parsed?: unknown
    }

/** Media types that are not JSON: refused. An absent type is read as JSON (the spec does not show the header). */
function isNonJsonType(contentType: string | undefined): boolean {
  if (!contentType?.trim()) {
    return false
  }
  const type = contentType.split(";")[0].trim().toLowerCase()
  return !(type === "application/json" || type.endsWith("+json") || type === "text/json")
}

const NUL = /\u0000/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether a string can be stored and shown as it is: no NUL, no lone surrogate. */
export function isStorableText(value: string): boolean {
  return badText(value) === null
}

function badText(value: string): string | null {
  if (NUL.test(value)) {
    return "a NUL character"
  }
  return LONE_SURROGATE.test(value) ? "a lone UTF-16 surrogate" : null
}

/** Depth and text checks without recursion, so no body can overflow the stack. */
function problemIn(root: unknown): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }]
  while (stack.length) {
    const { value, depth } = stack.pop()!
    if (typeof value === "string") {
      const bad = badText(value)
      if (bad) {
        return `a string holds ${bad}, which cannot be stored`
      }
      continue
    }
    if (!value || typeof value !== "object") {
      continue
    }
    if (depth > MAX_WEBHOOK_DEPTH) {
      return `it is nested more than ${MAX_WEBHOOK_DEPTH} levels deep`
    }
    for (const [key, inner] of Object.entries(value)) {
      const bad = badText(key)
      if (bad) {
        return `a key holds ${bad}, which cannot be stored`
      }
      stack.push({ value: inner, depth: depth + 1 })
    }
  }
  return null
}

export function checkWebhookBody(raw: Buffer, contentType: string | undefined): CheckedBody {
  if (isNonJsonType(contentType)) {
    return { ok: false, status: 415, reason: "The webhook body must be JSON (Content-Type: application/json)" }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw.toString("utf8"))
  } catch {
    return { ok: false, status: 400, reason: "The webhook body must be JSON" }
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { ok: false, status: 400, reason: "The webhook body must be a JSON object", parsed }
  }
  const problem = problemIn(parsed)
  if (problem) {
    return { ok: false, status: 400, reason: `The webhook body was refused: ${problem}`, parsed }
  }
  return { ok: true, body: parsed as Record<string, unknown> }
}

/** What is kept of a refused body: its size and digest, never its content (it may hold anything). */
export function refusedBodySummary(raw: Buffer, reason: string): Record<string, unknown> {
  return { refused: reason, bytes: raw.length, sha256: createHash("sha256").update(raw).digest("hex") }
}
