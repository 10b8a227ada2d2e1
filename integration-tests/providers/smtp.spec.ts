/**
 * Email over SMTP with nodemailer against a mail server on loopback: the plugin's subject, text and HTML reach the
 * order's address; a refused recipient is recorded failed and retried (decision 61). */
import { Modules } from "@medusajs/framework/utils"
import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import { SMTPServer } from "smtp-server"
import type { AddressInfo } from "node:net"
import { NOTIFICATION_MODULE, docsProvider, sendPluginMessages, taskRow } from "./harness"

jest.setTimeout(60_000)

const received: { from: string; to: string[]; raw: string }[] = []
let refuse = false
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onRcptTo(_address, _session, callback) {
    callback(refuse ? Object.assign(new Error("No such mailbox"), { responseCode: 550 }) : undefined)
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = []
    stream.on("data", (c: Buffer) => chunks.push(c))
    stream.on("end", () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString("utf8"),
      })
      callback()
    })
  },
})
let port = 0

/** The raw message with quoted-printable's soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

moduleIntegrationTestRunner({
  moduleName: Modules.NOTIFICATION,
  resolve: NOTIFICATION_MODULE,
  injectedDependencies: { logger: { info: jest.fn(), warn: jest.fn(), error: jest.fn(), debug: jest.fn() } },
  moduleOptions: {
    providers: [
      {
        resolve: docsProvider("smtp"),
        id: "smtp",
        options: {
          channels: ["email"],
          host: "127.0.0.1",
          get port() {
            return port
          },
          from: "Lastmile Demo Shop <shop@example.com>",
        },
      },
    ],
  },
  testSuite: ({ service }) => {
    beforeEach(() => {
      received.length = 0
      refuse = false
    })

    it("sends the plugin's subject, text and HTML to the order's address, with the server's message id", async () => {
      const { sent, record } = await sendPluginMessages(service, taskRow(), {}, docsProvider("smtp"), ["email"])
      expect(sent).toEqual(["delivery_out_for_delivery"])
      expect(record.sent.delivery_out_for_delivery.notification_id).toEqual(expect.any(String))
      const [mail] = received
      expect(mail.to).toEqual(["ada@example.com"])
      expect(mail.from).toBe("shop@example.com")
      const raw = decoded(mail.raw)
      expect(raw).toContain("Subject: Your order #1001 is out for delivery")
      expect(raw).toContain("Track your delivery: https://track.example/LM1001")
      expect(raw).toContain('<a href="https://track.example/LM1001">')
    })

    it("records a recipient the server refuses as failed and retried", async () => {
      refuse = true
      const { failed, record } = await sendPluginMessages(service, taskRow(), {}, docsProvider("smtp"), ["email"])
      expect(failed).toEqual(["delivery_out_for_delivery"])
      expect(record.failed.delivery_out_for_delivery).toMatchObject({
        error: expect.stringContaining("No such mailbox"),
        next_at: expect.any(String),
      })
      expect(received).toEqual([])
    })
  },
})
