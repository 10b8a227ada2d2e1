/** For the simulator's specs: control API calls with any method, and a webhook receiver keeping raw bodies and headers. */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { request } from "undici"
import type { LastmileSimulator } from "../server"

/** One call to the control API (/__sim/...), which takes no key. */
export async function control(
  sim: LastmileSimulator,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown
): Promise<{ status: number; json: any }> {
  const response = await request(`${sim.url}${path}`, {
    method,
    headers: body !== undefined ? { "content-type": "application/json" } : {},
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  })
  const text = await response.body.text()
  return { status: response.statusCode, json: text ? JSON.parse(text) : undefined }
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders
  raw: string
  body: any
}

export interface WebhookReceiver {
  url: string
  received: ReceivedWebhook[]
  close(): Promise<void>
}

/** Answers every webhook 200 and keeps it. */
export async function startReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = []
  const server = createServer((req, res) => {
    let raw = ""
    req.on("data", (chunk) => (raw += chunk))
    req.on("end", () => {
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/lastmile/token`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
