/**
 * The webhook's bell during an event-bus outage (Redis down): every post is
 * still acknowledged and stored, and the merchant's log says the bell failed
 * once a minute, not once per task.
 */
import { Readable } from "node:stream"
import type { IncomingMessage } from "node:http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import { receiveWebhook } from "../webhook-intake"

const SECRET = "bell-webhook-secret-0123"

function post(body: object): IncomingMessage {
  const raw = Buffer.from(JSON.stringify(body))
  const req = Readable.from([raw]) as unknown as IncomingMessage
  req.headers = { "content-type": "application/json", "content-length": String(raw.length) }
  return req
}

function appWithFailingBus() {
  const warn = jest.fn()
  const emit = jest.fn(async () => {
    throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { name: "RedisConnectionError" })
  })
  const stored: string[] = []
  const registrations: Record<string, unknown> = {
    [ContainerRegistrationKeys.CONFIG_MODULE]: {
      modules: {
        [Modules.FULFILLMENT]: {
          options: {
            providers: [
              {
                id: "lastmile",
                resolve: "medusa-plugin-lastmile/providers/lastmile",
                options: { api_key: "sk_bell", base_url: "http://127.0.0.1:9", webhook_secret: SECRET },
              },
            ],
          },
        },
      },
    },
    [ContainerRegistrationKeys.LOGGER]: { warn, info: jest.fn(), error: jest.fn(), debug: jest.fn() },
    [Modules.EVENT_BUS]: { emit },
    [LASTMILE_MODULE]: {
      recordWebhookEvent: async (event: { taskId?: string }) => {
        stored.push(event.taskId ?? "")
        return { id: `lmwe_${stored.length}`, status: "received", lastmile_task_id: `lmt_${event.taskId}` }
      },
    },
  }
  const container = { resolve: (key: string) => registrations[key] } as unknown as MedusaContainer
  return { container, warn, emit, stored }
}

describe("the webhook's bell when the event bus is down", () => {
  it("acknowledges and stores every post, and warns once rather than once per task", async () => {
    const { container, warn, emit, stored } = appWithFailingBus()

    const answers = []
    for (const taskId of ["T1", "T2", "T3", "T4", "T5"]) {
      answers.push(await receiveWebhook(container, SECRET, post({ taskId, status: "IN_TRANSIT" })))
    }
    // The bells ring just after the answers.
    await new Promise((resolve) => setImmediate(resolve))
    await new Promise((resolve) => setImmediate(resolve))

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    expect(stored).toEqual(["T1", "T2", "T3", "T4", "T5"])
    expect(emit).toHaveBeenCalledTimes(5)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0][0])).toMatch(/webhook bell .* not rung \(RedisConnectionError\).*polling job/)
    expect(String(warn.mock.calls[0][0])).not.toContain(SECRET)
  })
})
