/**
 * Which task a webhook body rings for (a task id, a tracking id or a merchantOrderId, at the top or nested), and its
 * event id when there is one: the payload is not specified (decision 14); and what a body must be before it is stored.
 */
import { createHash } from "node:crypto"

export interface TaskReference {
  taskId?: string
  trackingId?: string
  merchantOrderId?: string
}

const TASK_ID_KEYS = ["taskId", "task_id"]
const TRACKING_ID_KEYS = ["trackingId", "tracking_id", "trackingNumber", "tracking_number"]
const MERCHANT_ORDER_KEYS = ["merchantOrderId", "merchant_order_id"]
const EVENT_ID_KEYS = ["eventId", "event_id"]
const NESTED_KEYS = ["task", "data", "payload", "object", "delivery", "return", "order", "status"]

type Json = Record<string, unknown>

function scalar(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() && value.length <= 200 && isStorableText(value)) {
    return value.trim()
  }
  if (typeof value === "number" && Number.isFinite(value)) {
    return String(value)
  }
  return undefined
}

function firstOf(objects: Json[], keys: string[]): string | undefined {
  for (const object of objects) {
    for (const key of keys) {
      const found = scalar(object[key])
      if (found) {
        return found
      }
    }
  }
  return undefined
}

/** The body and the objects nested in it, breadth first, at most two levels down. */
function layers(body: Json): Json[] {
  const out: Json[] = [body]
  let frontier: Json[] = [body]
  for (let depth = 0; depth < 2; depth++) {
    const next: Json[] = []
    for (const object of frontier) {
      for (const key of NESTED_KEYS) {
        const inner = object[key]
        if (inner && typeof inner === "object" && !Array.isArray(inner)) {
          next.push(inner as Json)
        }
      }
    }
    out.push(...next)
    frontier = next
  }
  return out
}

export function taskReferenceOf(body: unknown): TaskReference {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return {}
  }
  const objects = layers(body as Json)
  const reference: TaskReference = {
    taskId: firstOf(objects, TASK_ID_KEYS),
    trackingId: firstOf(objects, TRACKING_ID_KEYS),
    merchantOrderId: firstOf(objects, MERCHANT_ORDER_KEYS),
  }
  // A task object's own `id` names the task when nothing more explicit does.
  if (!reference.taskId) {
    const task = (body as Json).task
    if (task && typeof task === "object") {
      reference.taskId = scalar((task as Json).id)
    }
  }
  return Object.fromEntries(Object.entries(reference).filter(([, v]) => v !== undefined)) as TaskReference
}

export function describeReference(reference: TaskReference): string | null {
  const parts = Object.entries(reference).map(([key, value]) => `${key}=${value}`)
  return parts.length ? parts.join(" ") : null
}

/**
 * The service's event id when it sends one. Without one, a hash of the body:
 * identical bodies then share a key, which is only used to coalesce
 * processing, never to drop a doorbell unheard.
 */
export function eventKeyOf(body: unknown, rawBody: Buffer): string {
  if (body && typeof body === "object" && !Array.isArray(body)) {
    // Never a bare `id`: it may be the task's own, shared by all its status changes.
    const id = firstOf([body as Json], EVENT_ID_KEYS)
    if (id) {
      return `id:${id}`
    }
  }
  return `sha256:${createHash("sha256").update(rawBody).digest("hex")}`
}

/**
 * What a webhook body must be before it is stored (decision 14): JSON, an object, at most 32 levels deep, and text
 * PostgreSQL can store; refused with a 4xx and the reason otherwise.
 */
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
