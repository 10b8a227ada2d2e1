/**
 * The webhook's synchronous part: authenticate, read at most 64 KB, check
 * the body, store the event, answer. No call to the service happens here, so
 * the answer is fast and a leaked token can do no more than queue re-reads.
 *
 * The bell (the event that has a worker re-read the task) is rung after the
 * answer by the module's webhook bells, at most once per task per second.
 * The stored event is the record; a bell lost to a crash leaves it
 * "received", and the polling job processes it a minute later.
 *
 * A body that cannot be stored as sent (not JSON, too deep, NUL or lone
 * surrogates, too large) is refused with a 4xx and its reason, and recorded
 * redacted (size and digest) for the merchant to see; when it still names a
 * task of ours, that task is re-read all the same, so nothing is lost.
 */
import type { IncomingMessage } from "node:http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { LASTMILE_MODULE } from "../../../../modules/lastmile"
import type { LastmileModuleService } from "../../../../modules/lastmile/service"
import { signatureMatches, tokenMatches } from "../../../../lib/tracking/webhook-auth"
import { checkWebhookBody, refusedBodySummary } from "../../../../lib/tracking/webhook-body"
import { describeReference, eventKeyOf, taskReferenceOf } from "../../../../lib/tracking/webhook-payload"

export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024

export interface WebhookAnswer {
  status: 200 | 400 | 401 | 413 | 415
  body?: Record<string, unknown>
}

class BodyTooLarge extends Error {
  constructor(readonly seen: number) {
    super("too large")
  }
}

async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) {
    throw new BodyTooLarge(declared)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > limit) {
      throw new BodyTooLarge(size)
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
  const module = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const options = module.connection()?.options
  // No detail on failure: a prober learns nothing about why.
  if (!options || !tokenMatches(token, options.webhookSecret)) {
    return { status: 401 }
  }
  let raw: Buffer
  try {
    raw = await readLimited(req, WEBHOOK_BODY_LIMIT_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      const reason = `Webhook bodies are limited to ${WEBHOOK_BODY_LIMIT_BYTES} bytes`
      await module.recordRefusedWebhook({
        reason,
        payload: { refused: reason, bytes: error.seen },
        taskReference: null,
      })
      return { status: 413, body: { message: reason } }
    }
    throw error
  }
  if (options.webhookSigningSecret) {
    const header = req.headers[options.webhookSignatureHeader]
    if (!signatureMatches(raw, Array.isArray(header) ? header.join(",") : header, options.webhookSigningSecret)) {
      return { status: 401 }
    }
  }
  const checked = checkWebhookBody(raw, req.headers["content-type"])
  if (!checked.ok) {
    const reference = taskReferenceOf(checked.parsed)
    const refused = await module.recordRefusedWebhook({
      reason: checked.reason,
      payload: refusedBodySummary(raw, checked.reason),
      taskReference: describeReference(reference),
      ...reference,
    })
    if (refused.lastmile_task_id) {
      // The body is unusable, but the task it names is re-read from the service all the same.
      module.webhookBells.ring({ id: refused.id, lastmile_task_id: refused.lastmile_task_id })
    }
    return { status: checked.status, body: { message: checked.reason } }
  }

  const reference = taskReferenceOf(checked.body)
  const event = await module.recordWebhookEvent({
    ...reference,
    eventKey: eventKeyOf(checked.body, raw),
    taskReference: describeReference(reference),
    payload: checked.body,
  })
  if (event.status === "received" && event.lastmile_task_id) {
    module.webhookBells.ring({ id: event.id, lastmile_task_id: event.lastmile_task_id })
  }
  return { status: 200, body: { received: true, status: event.status } }
}
