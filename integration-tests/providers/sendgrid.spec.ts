/**
 * Medusa's SendGrid provider against SendGrid's API on loopback (at the network boundary): the plugin's subject and
 * HTML, or the template id and data with send_content false; a refusal recorded failed (decision 61). */
import { dirname } from "node:path"
import { Modules } from "@medusajs/framework/utils"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { CaptureServer, NOTIFICATION_MODULE, sendHostTo, sendPluginMessages, taskRow } from "./harness"

jest.setTimeout(60_000)

const SENDGRID = dirname(require.resolve("@medusajs/notification-sendgrid/package.json"))
const api = new CaptureServer()
const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn(), debug: jest.fn() }

let restore = () => undefined as void

beforeAll(async () => {
  restore = sendHostTo("api.sendgrid.com", Number(new URL(await api.start()).port))
})
afterAll(async () => {
  restore()
  await api.stop()
})

moduleIntegrationTestRunner({
  moduleName: Modules.NOTIFICATION,
  resolve: NOTIFICATION_MODULE,
  injectedDependencies: { logger },
  moduleOptions: {
    providers: [
      {
        resolve: SENDGRID,
        id: "sendgrid",
        options: { channels: ["email"], api_key: "SG.test_key", from: "shop@example.com" },
      },
    ],
  },
  testSuite: ({ service }) => {
    beforeEach(() => {
      api.requests.length = 0
      api.answer = () => ({ status: 202, body: "" })
    })

    it("sends the plugin's subject and HTML to the order's email", async () => {
      const { sent } = await sendPluginMessages(service, taskRow(), {}, SENDGRID, ["email"])
      expect(sent).toEqual(["delivery_out_for_delivery"])
      const [request] = api.requests
      expect([request.method, request.path]).toEqual(["POST", "/v3/mail/send"])
      expect(request.headers.authorization).toBe("Bearer SG.test_key")
      const body = request.json as {
        from: { email: string }
        subject: string
        personalizations: { to: { email: string }[] }[]
        content: { type: string; value: string }[]
      }
      expect(body.personalizations[0].to[0].email).toBe("ada@example.com")
      expect(body.from.email).toBe("shop@example.com")
      expect(body.subject).toBe("Your order #1001 is out for delivery")
      expect(body.content.find((c) => c.type === "text/html")?.value).toContain("https://track.example/LM1001")
    })

    it("sends a dynamic template with the data when the plugin's words are left to SendGrid", async () => {
      const { sent } = await sendPluginMessages(
        service,
        taskRow(),
        { send_content: false, templates: { delivery_out_for_delivery: "d-out-for-delivery" } },
        SENDGRID,
        ["email"]
      )
      expect(sent).toEqual(["delivery_out_for_delivery"])
      expect(api.requests[0].json).toMatchObject({
        template_id: "d-out-for-delivery",
        personalizations: [
          { dynamic_template_data: { order: { name: "#1001" }, tracking: { url: "https://track.example/LM1001" } } },
        ],
      })
    })

    it("records an email SendGrid refuses as failed and retried", async () => {
      api.answer = () => ({
        status: 401,
        body: { errors: [{ message: "The provided authorization grant is invalid" }] },
      })
      const { failed, record } = await sendPluginMessages(service, taskRow(), {}, SENDGRID, ["email"])
      expect(failed).toEqual(["delivery_out_for_delivery"])
      expect(record.failed.delivery_out_for_delivery).toMatchObject({
        error: expect.stringContaining("authorization grant is invalid"),
        next_at: expect.any(String),
      })
    })
  },
})
