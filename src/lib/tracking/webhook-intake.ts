/**
 * The webhook's synchronous part: authenticate, read at most 64 KB, parse,
 * store the event, ring the subscriber. No call to the service happens here,
 * so the answer is fast and a leaked token can do no more than queue re-reads.
 */
import type { IncomingMessage } from "node:http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { lastmileProviderOptions } from "../booking/provider-client"
import { errorMessage } from "../booking/task-records"
import { signatureMatches, tokenMatches } from "./webhook-auth"
import { type TaskReference, describeReference, eventKeyOf, taskReferenceOf } from "./webhook-payload"

export const WEBHOOK_RECEIVED_EVENT = "lastmile.webhook.received"
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024

export interface WebhookAnswer {
  status: 200 | 400 | 401 | 413
  body?: Record<string, unknown>
}

class BodyTooLarge extends Error {}

async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) {
    throw new BodyTooLarge()
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > limit) {
      throw new BodyTooLarge()
    }
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}

export async function receiveWebhook(
  container: MedusaContainer,
  token: string | undefined,
  req: IncomingMessage
): Promise<WebhookAnswer> {
  const options = lastmileProviderOptions(container)
  // No detail on failure: a prober learns nothing about why.
  if (!options || !tokenMatches(token, options.webhookSecret)) {
    return { status: 401 }
  }
  let raw: Buffer
  try {
    raw = await readLimited(req, WEBHOOK_BODY_LIMIT_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      return { status: 413, body: { message: `Webhook bodies are limited to ${WEBHOOK_BODY_LIMIT_BYTES} bytes` } }
    }
    throw error
  }
  if (options.webhookSigningSecret) {
    const header = req.headers[options.webhookSignatureHeader]
    if (!signatureMatches(raw, Array.isArray(header) ? header.join(",") : header, options.webhookSigningSecret)) {
      return { status: 401 }
    }
  }
  let body: unknown
  try {
    body = JSON.parse(raw.toString("utf8"))
  } catch {
    return { status: 400, body: { message: "The webhook body must be JSON" } }
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return { status: 400, body: { message: "The webhook body must be a JSON object" } }
  }

  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const reference = taskReferenceOf(body)
  const taskRowId = await findTaskRow(module, reference)
  const eventKey = eventKeyOf(body, raw)
  const record = (status: "received" | "ignored" | "duplicate", outcome: string | null) =>
    module.createLastmileWebhookEvents({
      event_key: eventKey,
      first_of_event: status === "received" && eventKey.startsWith("id:") ? eventKey : null,
      lastmile_task_id: taskRowId,
      task_reference: describeReference(reference),
      status,
      outcome,
      payload: body as Record<string, unknown>,
    })
  let event: { id: string; status: string }
  if (!taskRowId) {
    event = await record("ignored", "names no task of this store")
  } else {
    // The unique first_of_event decides which delivery of a repeated event id counts.
    event = await record("received", null).catch((error: unknown) => {
      if (!/already exists|unique|duplicate/i.test(errorMessage(error))) {
        throw error
      }
      return record("duplicate", "the same event id was received before")
    })
  }
  if (event.status === "received") {
    await container.resolve(Modules.EVENT_BUS).emit({ name: WEBHOOK_RECEIVED_EVENT, data: { id: event.id } })
  }
  return { status: 200, body: { received: true, status: event.status } }
}

async function findTaskRow(module: LastmileModuleService, reference: TaskReference): Promise<string | null> {
  const or: Record<string, string>[] = []
  if (reference.taskId) {
    or.push({ task_id: reference.taskId })
  }
  if (reference.trackingId) {
    or.push({ tracking_id: reference.trackingId })
  }
  if (reference.merchantOrderId) {
    or.push({ merchant_order_id: reference.merchantOrderId })
  }
  if (!or.length) {
    return null
  }
  const [task] = await module.listLastmileTasks({ $or: or }, { select: ["id"], take: 1 })
  return task?.id ?? null
}
