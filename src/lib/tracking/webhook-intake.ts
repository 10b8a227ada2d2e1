/**
 * The webhook's synchronous part: authenticate, read at most 64 KB, parse,
 * store the event, answer. No call to the service happens here, so the
 * answer is fast and a leaked token can do no more than queue re-reads.
 *
 * The bell (the event that has a worker re-read the task) is rung after the
 * answer, at most once per task per second (and once more after a burst):
 * an emit costs a Redis write and Medusa's cache invalidation, which is most
 * of what an acknowledgement used to wait on (RELIABILITY.md). The stored
 * event is the record; a bell lost to a crash leaves it "received", and the
 * polling job processes it a minute later.
 */
import type { IncomingMessage } from "node:http"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { lastmileProviderOptions } from "../connection/lastmile-connection"
import { ThrottledLog } from "../lastmile/throttled-log"
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
    ringSoon(container, { id: event.id, lastmile_task_id: event.lastmile_task_id })
  }
  return { status: 200, body: { received: true, status: event.status } }
}

/**
 * A task's bell rings at most once per window: the first post of a burst
 * rings it just after its answer, later ones in the window ring it once more
 * at the window's end (one re-read settles every event stored before it).
 */
const BELL_WINDOW_MS = 1000

/** Per event bus (one per app): the open window of each task, and the bell's warnings, said once a minute in an outage rather than once per task. */
interface Bells {
  windows: Map<string, { pending?: WebhookReceivedData }>
  warnings: ThrottledLog
}
const bellsByBus = new WeakMap<IEventBusModuleService, Bells>()

function ringSoon(container: MedusaContainer, data: WebhookReceivedData): void {
  const bus = container.resolve<IEventBusModuleService>(Modules.EVENT_BUS)
  let bells = bellsByBus.get(bus)
  if (!bells) {
    bells = {
      windows: new Map(),
      warnings: new ThrottledLog(container.resolve<Logger>(ContainerRegistrationKeys.LOGGER), 60_000),
    }
    bellsByBus.set(bus, bells)
  }
  const { windows, warnings } = bells
  const open = windows.get(data.lastmile_task_id)
  if (open) {
    open.pending = data
    return
  }
  const window: { pending?: WebhookReceivedData } = {}
  windows.set(data.lastmile_task_id, window)
  // After the answer has gone: the emit's own work (a Redis write, Medusa's cache invalidation) is not the post's.
  setImmediate(() =>
    bus
      .emit({ name: WEBHOOK_RECEIVED_EVENT, data })
      .catch((error: unknown) =>
        warnings.warn(
          "bell",
          `lastmile: webhook bell for task ${data.lastmile_task_id} not rung (${error instanceof Error ? error.name : "error"}); the polling job processes stored webhook events within a minute`
        )
      )
  )
  setTimeout(() => {
    windows.delete(data.lastmile_task_id)
    if (window.pending) {
      ringSoon(container, window.pending)
    }
  }, BELL_WINDOW_MS).unref()
}
