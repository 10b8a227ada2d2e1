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
import { lastmileProviderOptions } from "../connection/lastmile-connection"
import { signatureMatches, tokenMatches } from "./webhook-auth"
import { describeReference, eventKeyOf, taskReferenceOf } from "./webhook-payload"

export const WEBHOOK_RECEIVED_EVENT = "lastmile.webhook.received"
export interface WebhookReceivedData {
  id: string
  lastmile_task_id: string
}
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
  const event = await module.recordWebhookEvent({
    ...reference,
    eventKey: eventKeyOf(body, raw),
    taskReference: describeReference(reference),
    payload: body as Record<string, unknown>,
  })
  if (event.status === "received" && event.lastmile_task_id) {
    const data: WebhookReceivedData = { id: event.id, lastmile_task_id: event.lastmile_task_id }
    await container.resolve(Modules.EVENT_BUS).emit({ name: WEBHOOK_RECEIVED_EVENT, data })
  }
  return { status: 200, body: { received: true, status: event.status } }
}
