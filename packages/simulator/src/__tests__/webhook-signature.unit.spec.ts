import { createHmac } from "node:crypto"
import { bookingRequest, quoteRequest } from "./service-requests"
import { callSimulator, testStore } from "./simulator-calls"
import { LastmileSimulator } from "../server"
import { signWebhookBody } from "../webhook-signature"
import { startReceiver, type WebhookReceiver } from "./sim-helpers"

const KEY = "sim_key_for_signature_tests"

describe("the simulator's webhook signature", () => {
  it("is HMAC-SHA256 of the raw body, in hex, with a sha256= prefix", () => {
    // RFC-style vector: HMAC-SHA256("key", "The quick brown fox jumps over the lazy dog").
    expect(signWebhookBody("The quick brown fox jumps over the lazy dog", "key")).toBe(
      "sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
    )
    expect(signWebhookBody(Buffer.from("{}"), "key")).toBe(signWebhookBody("{}", "key"))
  })

  describe("on the webhooks it sends", () => {
    let sim: LastmileSimulator
    let receiver: WebhookReceiver

    beforeEach(async () => {
      receiver = await startReceiver()
      sim = new LastmileSimulator({
        config: { apiKey: KEY, webhookUrl: receiver.url, webhook: { retryBaseMs: 5, retryMaxMs: 20 } },
        locations: [testStore("a", { "SKU-A": 5 })],
      })
      await sim.start()
      await callSimulator(sim, KEY, "POST", "/task/quotes", quoteRequest())
    })

    afterEach(async () => {
      await sim.stop()
      await receiver.close()
    })

    const bookAndAdvance = async () => {
      const { json } = await callSimulator(sim, KEY, "POST", "/task/deliveries", bookingRequest("NEXT_DAY"))
      sim.advanceTask((json as { taskId: number }).taskId)
      await sim.webhooks.idle()
    }

    it("signs each body under the signing secret, in the configured header", async () => {
      sim.configure({ webhook: { signingSecret: "whsec_0123456789", signatureHeader: "x-sig" } })
      await bookAndAdvance()
      const [hook] = receiver.received
      const expected = `sha256=${createHmac("sha256", "whsec_0123456789").update(hook.raw).digest("hex")}`
      expect(hook.headers["x-sig"]).toBe(expected)
    })

    it("uses x-lastmile-signature by default, and signs nothing without a secret", async () => {
      sim.configure({ webhook: { signingSecret: "whsec_0123456789" } })
      await bookAndAdvance()
      expect(receiver.received[0].headers["x-lastmile-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/)

      sim.configure({ webhook: { signingSecret: undefined } })
      sim.advanceTask(sim.tasks()[0].taskId)
      await sim.webhooks.idle()
      expect(receiver.received[1].headers).not.toHaveProperty("x-lastmile-signature")
    })
  })
})
