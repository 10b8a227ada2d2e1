/**
 * The webhook's synchronous part (decisions 14 and 31): authenticate, read at most 64 KB, check the body, store the
 * event, answer; no call to the service, and nothing written for a request that is not authenticated.
 */
import { createHmac } from "node:crypto"
import type { IncomingMessage } from "node:http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ServiceConnectionService } from "../../../../modules/lastmile/services/service-connection"
import { TrackingRunsService } from "../../../../modules/lastmile/services/tracking-runs"
import { WebhookEventsService } from "../../../../modules/lastmile/services/webhook-events"
import { hasSignature, signatureMatchesDigest, tokenMatches } from "../../../../lib/tracking/webhook-auth"
import {
  checkWebhookBody,
  refusedBodySummary,
  describeReference,
  eventKeyOf,
  taskReferenceOf,
} from "../../../../lib/tracking/webhook-payload"

export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024

/** How much of an oversized body is hashed to tell whether the service signed it (it is never kept). */
export const SIGNED_BODY_READ_LIMIT_BYTES = 1024 * 1024

export interface WebhookAnswer {
  status: 200 | 400 | 401 | 413 | 415
  body?: Record<string, unknown>
}

class BodyTooLarge extends Error {
  constructor(readonly seen: number) {
    super("too large")
  }
}

interface ReadBody {
  /** The body, or its first `keep` bytes when it is longer. */
  raw: Buffer
  size: number
  /** Longer than `keep`: only the size and the signature are known. */
  oversized: boolean
  /** HMAC-SHA256 of the whole body under the signing secret, when there is one. */
  hmac?: Buffer
}

/**
 * Reads the body, keeping at most `keep` bytes and reading at most `read`
 * (a declared length over it is refused before a byte is read).
 */
async function readBody(
  req: IncomingMessage,
  { keep, read, secret }: { keep: number; read: number; secret?: string }
): Promise<ReadBody> {
  const declared = Number(req.headers["content-length"])
  if (Number.isFinite(declared) && declared > read) {
    throw new BodyTooLarge(declared)
  }
  const hmac = secret ? createHmac("sha256", secret) : undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > read) {
      throw new BodyTooLarge(size)
    }
    hmac?.update(buffer)
    if (size <= keep) {
      chunks.push(buffer)
    }
  }
  return { raw: Buffer.concat(chunks), size, oversized: size > keep, hmac: hmac?.digest() }
}

export async function receiveWebhook(
  container: MedusaContainer,
  token: string | undefined,
  req: IncomingMessage
): Promise<WebhookAnswer> {
  const events = WebhookEventsService.of(container)
  const { bells } = TrackingRunsService.of(container)
  const options = ServiceConnectionService.of(container).get()?.options
  // No detail on failure: a prober learns nothing about why.
  if (!options || !tokenMatches(token, options.webhookSecret)) {
    return { status: 401 }
  }
  const secret = options.webhookSigningSecret
  const given = req.headers[options.webhookSignatureHeader]
  const signature = Array.isArray(given) ? given.join(",") : given
  if (secret && !hasSignature(signature)) {
    return { status: 401 }
  }
  const tooLarge = `Webhook bodies are limited to ${WEBHOOK_BODY_LIMIT_BYTES} bytes`
  let body: ReadBody
  try {
    body = await readBody(req, {
      keep: WEBHOOK_BODY_LIMIT_BYTES,
      // Without a signing secret the token authenticated it: nothing beyond the limit need be read.
      read: secret ? SIGNED_BODY_READ_LIMIT_BYTES : WEBHOOK_BODY_LIMIT_BYTES,
      secret,
    })
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) {
      throw error
    }
    if (!secret) {
      await events.recordRefused({
        reason: tooLarge,
        payload: { refused: tooLarge, bytes: error.seen },
        taskReference: null,
      })
    }
    // With a signing secret, a body too large to hash cannot be proved the service's: nothing is written.
    return { status: 413, body: { message: tooLarge } }
  }
  if (secret && !(body.hmac && signatureMatchesDigest(body.hmac, signature))) {
    return { status: 401 }
  }
  if (body.oversized) {
    await events.recordRefused({
      reason: tooLarge,
      payload: { refused: tooLarge, bytes: body.size },
      taskReference: null,
    })
    return { status: 413, body: { message: tooLarge } }
  }
  const raw = body.raw
  const checked = checkWebhookBody(raw, req.headers["content-type"])
  if (!checked.ok) {
    const reference = taskReferenceOf(checked.parsed)
    const refused = await events.recordRefused({
      reason: checked.reason,
      payload: refusedBodySummary(raw, checked.reason),
      taskReference: describeReference(reference),
      ...reference,
    })
    if (refused.lastmile_task_id) {
      // The body is unusable, but the task it names is re-read from the service all the same.
      bells.ring({ id: refused.id, lastmile_task_id: refused.lastmile_task_id })
    }
    return { status: checked.status, body: { message: checked.reason } }
  }

  const reference = taskReferenceOf(checked.body)
  const event = await events.record({
    ...reference,
    eventKey: eventKeyOf(checked.body, raw),
    taskReference: describeReference(reference),
    payload: checked.body,
  })
  if (event.status === "received" && event.lastmile_task_id) {
    // The stored event is the record: a bell lost to a crash leaves it "received", and the polling job takes it up.
    bells.ring({ id: event.id, lastmile_task_id: event.lastmile_task_id })
  }
  return { status: 200, body: { received: true, status: event.status } }
}
