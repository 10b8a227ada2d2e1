/**
 * Resend as Medusa's guide builds it, against its API on loopback: as built it answers {} and sends nothing (recorded
 * failed, retried); with the lines that send content, Resend receives the plugin's words (decision 61). */
import { Modules } from "@medusajs/framework/utils"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { CaptureServer, NOTIFICATION_MODULE, docsProvider, sendPluginMessages, taskRow } from "./harness"

jest.setTimeout(60_000)

const resend = new CaptureServer()
const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn(), debug: jest.fn() }
const options = { api_key: "re_test_key", from: "Lastmile Demo Shop <shop@example.com>" }

beforeAll(async () => {
  // The SDK reads it when the provider makes its client, at the module's start.
  process.env.RESEND_BASE_URL = await resend.start()
})
afterAll(async () => {
  delete process.env.RESEND_BASE_URL
  await resend.stop()
})

moduleIntegrationTestRunner({
  moduleName: Modules.NOTIFICATION,
  resolve: NOTIFICATION_MODULE,
  injectedDependencies: { logger },
  moduleOptions: {
    providers: [
      { resolve: docsProvider("resend"), id: "resend", options: { ...options, channels: ["email"] } },
      {
        resolve: docsProvider("resend/content-index"),
        id: "resend-content",
        options: { ...options, channels: ["email-content"] },
      },
    ],
  },
  testSuite: ({ service }) => {
    beforeEach(() => {
      resend.requests.length = 0
      resend.answer = () => ({ status: 200, body: { id: `re_${resend.requests.length}` } })
    })

    it("records the guide's provider, which answers {} for a template it does not know, as not sent, and retries it", async () => {
      const row = taskRow()
      const { sent, failed, record } = await sendPluginMessages(service, row, {}, docsProvider("resend"), ["email"])
      expect(sent).toEqual([])
      expect(failed).toEqual(["delivery_out_for_delivery"])
      expect(record.failed.delivery_out_for_delivery).toMatchObject({
        attempts: 1,
        error: expect.stringContaining("answered without a message id"),
        next_at: expect.any(String),
      })
      expect(resend.requests).toEqual([])
      expect(logger.error).toHaveBeenCalledWith(expect.stringContaining("lastmile-delivery-out-for-delivery"))
      const [row1] = await (
        service as { listNotifications: (f: object) => Promise<{ status: string }[]> }
      ).listNotifications({
        idempotency_key: `lastmile:${row.id}:delivery_out_for_delivery`,
      })
      expect(row1.status).toBe("failure")
    })

    it("sends the plugin's subject, text and HTML through Resend with the lines that use content", async () => {
      const { sent, record } = await sendPluginMessages(
        service,
        taskRow(),
        { channel: "email-content" },
        docsProvider("resend/content-index"),
        ["email-content"]
      )
      expect(sent).toEqual(["delivery_out_for_delivery"])
      expect(record.sent.delivery_out_for_delivery.channel).toBe("email-content")
      const [request] = resend.requests
      expect([request.method, request.path]).toEqual(["POST", "/emails"])
      expect(request.headers.authorization).toBe("Bearer re_test_key")
      expect(request.json).toMatchObject({
        from: "Lastmile Demo Shop <shop@example.com>",
        to: ["ada@example.com"],
        subject: "Your order #1001 is out for delivery",
        text: expect.stringContaining("Track your delivery: https://track.example/LM1001"),
        html: expect.stringContaining('<a href="https://track.example/LM1001">'),
      })
    })

    it("records an email Resend refuses as failed", async () => {
      resend.answer = () => ({ status: 422, body: { name: "validation_error", message: "Invalid `to` field" } })
      const { sent, failed } = await sendPluginMessages(
        service,
        taskRow(),
        { channel: "email-content" },
        docsProvider("resend/content-index"),
        ["email-content"]
      )
      expect([sent, failed]).toEqual([[], ["delivery_out_for_delivery"]])
    })
  },
})
