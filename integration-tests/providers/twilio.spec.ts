/**
 * Twilio SMS as Medusa's guide builds it, against Twilio's API on loopback (at the network boundary): the plugin's text
 * to the order's phone in E.164, one SMS with the link; no content or a refusal recorded failed (decision 61). */
import { Modules } from "@medusajs/framework/utils"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { CaptureServer, NOTIFICATION_MODULE, docsProvider, sendHostTo, sendPluginMessages, taskRow } from "./harness"

jest.setTimeout(60_000)

const twilio = new CaptureServer()
const logger = { info: jest.fn(), warn: jest.fn(), error: jest.fn(), debug: jest.fn() }
let restore = () => undefined as void

beforeAll(async () => {
  // api.twilio.com is answered by the capture on loopback.
  restore = sendHostTo("api.twilio.com", Number(new URL(await twilio.start()).port))
})
afterAll(async () => {
  restore()
  await twilio.stop()
})

moduleIntegrationTestRunner({
  moduleName: Modules.NOTIFICATION,
  resolve: NOTIFICATION_MODULE,
  injectedDependencies: { logger },
  moduleOptions: {
    providers: [
      {
        resolve: docsProvider("twilio-sms"),
        id: "twilio-sms",
        options: { channels: ["sms"], accountSid: "AC_test", authToken: "token_test", from: "+447700900000" },
      },
    ],
  },
  testSuite: ({ service }) => {
    beforeEach(() => {
      twilio.requests.length = 0
      twilio.answer = () => ({ status: 201, body: { sid: `SM${twilio.requests.length}`, status: "queued" } })
    })

    it("texts out for delivery to the order's phone in E.164, in one SMS with the tracking link", async () => {
      const { sent, record } = await sendPluginMessages(
        service,
        taskRow(),
        { sms_channel: "sms" },
        docsProvider("twilio-sms"),
        ["sms"]
      )
      expect(sent).toEqual(["delivery_out_for_delivery|sms"])
      expect(record.sent["delivery_out_for_delivery|sms"]).toMatchObject({
        channel: "sms",
        template: "lastmile-delivery-out-for-delivery-sms",
      })
      const [request] = twilio.requests
      expect([request.method, request.path]).toEqual(["POST", "/2010-04-01/Accounts/AC_test/Messages.json"])
      expect(request.form).toMatchObject({ To: "+447911123456", From: "+447700900000" })
      expect(request.form.Body).toContain("Your order #1001 is out for delivery")
      expect(request.form.Body).toContain("https://track.example/LM1001")
      expect(request.form.Body.length).toBeLessThanOrEqual(160)
    })

    it("records the guide's template lookup, which throws without content, and Twilio refusing, as failed", async () => {
      const noContent = await sendPluginMessages(
        service,
        taskRow(),
        { sms_channel: "sms", send_content: false },
        docsProvider("twilio-sms"),
        ["sms"]
      )
      expect(noContent.failed).toEqual(["delivery_out_for_delivery|sms"])
      expect(noContent.record.failed["delivery_out_for_delivery|sms"].error).toContain("not found")
      expect(twilio.requests).toEqual([])
      twilio.answer = () => ({
        status: 400,
        body: { code: 21211, message: "The 'To' number is not a valid phone number." },
      })
      const refused = await sendPluginMessages(service, taskRow(), { sms_channel: "sms" }, docsProvider("twilio-sms"), [
        "sms",
      ])
      expect(refused.failed).toEqual(["delivery_out_for_delivery|sms"])
      expect(refused.record.failed["delivery_out_for_delivery|sms"].next_at).toEqual(expect.any(String))
    })
  },
})
