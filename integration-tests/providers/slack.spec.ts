/**
 * Slack as Medusa's guide builds it, against a webhook on loopback: as built it throws for the plugin's alerts (recorded
 * failed, retried); with the lines that post content, the channel gets the alert and its link (decision 61). */
import { Modules } from "@medusajs/framework/utils"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { CaptureServer, NOTIFICATION_MODULE, docsProvider, sendPluginMessages, taskRow } from "./harness"

jest.setTimeout(60_000)

const slack = new CaptureServer()
const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn(), debug: jest.fn() }
let webhook = ""

beforeAll(async () => {
  webhook = `${await slack.start()}/services/T000/B000/XXXX`
})
afterAll(() => slack.stop())

/** A booking the service refused: the merchant's alert is due, on the channel the test names. */
const refused = () => ({
  ...taskRow([]),
  status: "needs_attention",
  service_status: null,
  status_history: { entries: [] },
})

moduleIntegrationTestRunner({
  moduleName: Modules.NOTIFICATION,
  resolve: NOTIFICATION_MODULE,
  injectedDependencies: { logger },
  moduleOptions: {
    providers: [
      {
        resolve: docsProvider("slack"),
        id: "slack",
        options: {
          channels: ["slack"],
          get webhook_url() {
            return webhook
          },
          admin_url: "https://shop.example/app",
        },
      },
      {
        resolve: docsProvider("slack/content-index"),
        id: "slack-content",
        options: {
          channels: ["slack-content"],
          get webhook_url() {
            return webhook
          },
          admin_url: "https://shop.example/app",
        },
      },
    ],
  },
  testSuite: ({ service }) => {
    beforeEach(() => {
      slack.requests.length = 0
      slack.answer = () => ({
        status: 200,
        body: "ok",
        headers: { "content-type": "text/plain", "x-slack-req-id": "req-1" },
      })
    })

    it("records the guide's provider, which throws for a template it does not support, as failed and retried", async () => {
      const { sent, failed, record } = await sendPluginMessages(
        service,
        refused(),
        { merchant_channel: "slack" },
        docsProvider("slack"),
        ["slack"]
      )
      expect([sent, failed]).toEqual([[], ["merchant_booking_needs_attention"]])
      expect(record.failed.merchant_booking_needs_attention).toMatchObject({
        error: expect.stringContaining("not supported"),
        next_at: expect.any(String),
      })
      expect(slack.requests).toEqual([])
    })

    it("posts the alert's words with the order's admin link through the lines that use content", async () => {
      const { sent } = await sendPluginMessages(
        service,
        refused(),
        { merchant_channel: "slack-content" },
        docsProvider("slack/content-index"),
        ["slack-content"]
      )
      expect(sent).toEqual(["merchant_booking_needs_attention"])
      const [request] = slack.requests
      expect([request.method, request.path]).toEqual(["POST", "/services/T000/B000/XXXX"])
      const text = (request.json as { text: string }).text
      expect(text).toContain("*Booking needs you: order #1001*")
      expect(text).toContain("The rate is no longer offered")
      expect(text).toContain("https://shop.example/app/orders/order_1")
    })

    it("records a webhook Slack refuses as failed", async () => {
      slack.answer = () => ({ status: 404, body: "no_service", headers: { "content-type": "text/plain" } })
      const { failed } = await sendPluginMessages(
        service,
        refused(),
        { merchant_channel: "slack-content" },
        docsProvider("slack/content-index"),
        ["slack-content"]
      )
      expect(failed).toEqual(["merchant_booking_needs_attention"])
    })
  },
})
