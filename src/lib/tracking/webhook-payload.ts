/**
 * Which task a webhook body rings for (a task id, a tracking id or a merchantOrderId, at the top or nested), and its
 * event id when there is one: the payload is not specified (decision 14).
 */
import { createHash } from "node:crypto"
import { isStorableText } from "./webhook-body"

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
