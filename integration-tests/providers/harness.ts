/**
 * What every provider test shares (decision 61): Medusa's Notification Module on real PostgreSQL with the provider
 * registered, a loopback capture of the vendor's API, and a real plugin message sent through the plugin's own pass.
 */
import http, { type IncomingMessage, type Server, createServer } from "node:http"
import https from "node:https"
import type { AddressInfo } from "node:net"
import { dirname, join } from "node:path"
import { StatusTable } from "../../src/lib/tracking/status-table"
import { notificationOptionsSchema, resolveNotificationOptions } from "../../src/lib/notifications/notification-options"
import { type NotifyRow, notifyPass } from "../../src/lib/notifications/notify-pass"
import type { NotificationFacts } from "../../src/lib/notifications/notification-data"
import { type NotificationCalls, sendOnce } from "../../src/lib/notifications/notify-pass"
import { requiresMessageId } from "../../src/lib/notifications/notification-channels"
import type { NotificationRecord } from "../../src/lib/notifications/notification-record"

/** Medusa's Notification Module, as the module test runner loads it. */
export const NOTIFICATION_MODULE = dirname(require.resolve("@medusajs/notification/package.json"))

/** A provider of this repository's docs/providers, by absolute path. */
export const docsProvider = (path: string) => join(__dirname, "../../docs/providers", path)

export interface Captured {
  method: string
  path: string
  headers: IncomingMessage["headers"]
  body: string
  /** The body as JSON, or as form fields, when it is either. */
  json: unknown
  form: Record<string, string>
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> }

/** A loopback stand-in for a vendor's API: records every request, answers what `answer` says. */
export class CaptureServer {
  readonly requests: Captured[] = []
  private server: Server | null = null
  answer: (request: Captured) => Answer = () => ({ status: 200, body: {} })

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8")
        let json: unknown = null
        try {
          json = JSON.parse(body)
        } catch {
          json = null
        }
        const captured: Captured = {
          method: req.method ?? "",
          path: req.url ?? "",
          headers: req.headers,
          body,
          json,
          form: Object.fromEntries(new URLSearchParams(body)),
        }
        this.requests.push(captured)
        const { status, body: out, headers } = this.answer(captured)
        res.writeHead(status, { "content-type": "application/json", ...headers })
        res.end(typeof out === "string" ? out : JSON.stringify(out))
      })
    })
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve))
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve))
  }
}

const NOW = new Date()
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString()

/** A booked delivery out for delivery (or as `statuses` say), whose task row the pass reads. */
export function taskRow(statuses: string[] = ["OUT_FOR_DELIVERY"], notifications: unknown = null): NotifyRow {
  return {
    id: `lmtask_${Math.random().toString(36).slice(2)}`,
    mode: "delivery",
    status: "booked",
    attempts: 1,
    booked_at: minutesAgo(30),
    tracking_state: "shipped",
    service_status: statuses.at(-1) ?? "NOT_STARTED",
    status_history: {
      entries: statuses.map((value, i) => ({ value, at: minutesAgo(20 - i), source: "webhook" })),
    },
    cancellation: null,
    notifications,
    notify_at: null,
  }
}

/** What the plugin reads of a real order for its messages. */
export function orderFacts(): NotificationFacts {
  const tomorrow = new Date(NOW.getTime() + 86_400_000).toISOString().slice(0, 10)
  return {
    task: {
      id: "lmtask_1",
      kind: "delivery",
      mode: "delivery",
      origin: "order",
      status: "booked",
      service_status: "OUT_FOR_DELIVERY",
      tracking_id: "LM1001",
      tracking_url: "https://track.example/LM1001",
      attempts: 1,
      last_error: "The rate is no longer offered",
      next_attempt_at: null,
    },
    order: {
      id: "order_1",
      display_id: 1001,
      email: "ada@example.com",
      first_name: "Ada",
      last_name: "Lovelace",
      shipping_address: { address_1: "10 Downing Street", city: "London", postal_code: "SW1A 2AA", country_code: "gb" },
      phone: "07911 123456",
      locale: null,
    },
    rate: {
      code: "NEXT_DAY",
      name: "Next day delivery",
      window: { from: `${tomorrow}T08:00:00Z`, to: `${tomorrow}T20:00:00Z` },
    },
    store: null,
    admin_url: "https://shop.example/app/orders/order_1",
    shop_name: "Lastmile Demo Shop",
    order_url: "https://shop.example/orders/order_1",
    items: [{ title: "Medusa Tee", quantity: 1 }],
  }
}

/**
 * Runs the plugin's notification pass for the row, sending through Medusa's Notification Module: what the pass
 * recorded (sent, failed and when it retries), as the task row would keep it.
 */
export async function sendPluginMessages(
  service: unknown,
  row: NotifyRow,
  settings: Record<string, unknown>,
  providerResolve: string,
  /** The channels with a provider in the module under test. */
  channels: string[]
): Promise<{ sent: string[]; failed: string[]; record: NotificationRecord }> {
  const options = resolveNotificationOptions(
    notificationOptionsSchema.parse({ time_zone: "Europe/London", ...settings }),
    new StatusTable()
  )
  const provider = { id: "under-test", resolve: providerResolve, name: null }
  const { outcome, update } = await notifyPass(row, options, NOW, {
    canNotifyOn: (channel) => channels.includes(channel),
    readFacts: async () => orderFacts(),
    send: (message) =>
      sendOnce(service as NotificationCalls, message, requiresMessageId(message.channel, null, provider)),
  })
  return { sent: outcome.sent, failed: outcome.failed, record: update!.notifications }
}

/**
 * Sends an SDK's HTTPS requests for `host` to a loopback capture, at the network boundary (Node's `https.request`),
 * for an SDK that takes no base URL of its own (Twilio's) or whose client the provider holds (SendGrid's): the
 * request leaves the SDK as it would, over plain HTTP. Returns what undoes it.
 */
export function sendHostTo(host: string, port: number): () => void {
  const original = https.request
  https.request = ((...args: unknown[]) => {
    const options = args[0] as http.RequestOptions
    const callback = args.find((a) => typeof a === "function") as ((res: IncomingMessage) => void) | undefined
    if ((options?.hostname ?? options?.host) !== host) {
      return (original as (...a: unknown[]) => http.ClientRequest)(...args)
    }
    const { agent: _agent, ...rest } = options
    return http.request({ ...rest, protocol: "http:", host: "127.0.0.1", hostname: "127.0.0.1", port }, callback)
  }) as typeof https.request
  return () => {
    https.request = original
  }
}
