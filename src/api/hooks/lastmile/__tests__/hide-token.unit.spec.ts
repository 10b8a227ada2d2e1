/** The webhook's token never reaches Medusa's access log (morgan, as Medusa configures it in each mode). */
import type { AddressInfo } from "node:net"
import express from "express"
import morgan from "morgan"
import { REDACTED_WEBHOOK_PATH, hideWebhookToken } from "../hide-token"

const TOKEN = "whsec_secret_token_0123456789"

async function post(format: string): Promise<{ lines: string[]; params: string[] }> {
  const lines: string[] = []
  const params: string[] = []
  const app = express()
  app.use(morgan(format, { stream: { write: (line: string) => void lines.push(line) } }))
  app.post("/hooks/lastmile/:token", hideWebhookToken, (req, res) => {
    params.push(req.params.token)
    res.sendStatus(200)
  })
  const server = app.listen(0, "127.0.0.1")
  await new Promise((resolve) => server.once("listening", resolve))
  const { port } = server.address() as AddressInfo
  await fetch(`http://127.0.0.1:${port}/hooks/lastmile/${TOKEN}`, { method: "POST" })
  await new Promise((resolve) => setTimeout(resolve, 20))
  await new Promise((resolve) => server.close(resolve))
  return { lines, params }
}

describe("the webhook's access log line", () => {
  it.each([
    ["development", ":method :url ← :referrer (:status) - :response-time ms"],
    ["production", ":method :url :status :res[content-length] - :response-time ms"],
  ])("holds no token in %s, and the route still reads it", async (_mode, format) => {
    const { lines, params } = await post(format)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(REDACTED_WEBHOOK_PATH)
    expect(lines[0]).not.toContain(TOKEN)
    expect(params).toEqual([TOKEN])
  })
})
