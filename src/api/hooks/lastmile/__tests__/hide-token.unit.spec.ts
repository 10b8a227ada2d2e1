/**
 * The webhook's token never reaches Medusa's access log (morgan, as Medusa configures it), whatever the method; the
 * middleware is mounted as Medusa's ApiLoader mounts it, since Medusa's test runner turns the access log off.
 */
import type { AddressInfo } from "node:net"
import express from "express"
import morgan from "morgan"
import config from "../../../middlewares"
import { REDACTED_WEBHOOK_PATH } from "../hide-token"

const TOKEN = "whsec_secret_token_0123456789"

async function call(
  format: string,
  method: string,
  path: string
): Promise<{ lines: string[]; params: string[]; status: number }> {
  const lines: string[] = []
  const params: string[] = []
  const app = express()
  app.use(morgan(format, { stream: { write: (line: string) => void lines.push(line) } }))
  const webhook = (config.routes ?? []).filter(
    (route) => route.matcher instanceof RegExp && route.matcher.test("/hooks/lastmile/x") && !route.methods
  )
  expect(webhook).toHaveLength(1)
  for (const middleware of webhook[0].middlewares ?? []) {
    app.use(webhook[0].matcher, middleware as express.RequestHandler)
  }
  app.post("/hooks/lastmile/:token", (req, res) => {
    params.push(req.params.token)
    res.sendStatus(200)
  })
  const server = app.listen(0, "127.0.0.1")
  await new Promise((resolve) => server.once("listening", resolve))
  const { port } = server.address() as AddressInfo
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method })
  await response.arrayBuffer()
  await new Promise((resolve) => setTimeout(resolve, 20))
  await new Promise((resolve) => server.close(resolve))
  return { lines, params, status: response.status }
}

describe("the webhook's access log line", () => {
  const formats = [
    ["development", ":method :url ← :referrer (:status) - :response-time ms"],
    ["production", ":method :url :status :res[content-length] - :response-time ms"],
  ]

  it.each(formats)("holds no token in %s, and the route still reads it", async (_mode, format) => {
    const { lines, params } = await call(format, "POST", `/hooks/lastmile/${TOKEN}`)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(REDACTED_WEBHOOK_PATH)
    expect(lines[0]).not.toContain(TOKEN)
    expect(params).toEqual([TOKEN])
  })

  it.each(formats)("holds no token in %s for any other method or a path below it", async (_mode, format) => {
    for (const [method, path] of [
      ["GET", `/hooks/lastmile/${TOKEN}`],
      ["PUT", `/hooks/lastmile/${TOKEN}`],
      ["DELETE", `/hooks/lastmile/${TOKEN}`],
      ["PATCH", `/hooks/lastmile/${TOKEN}`],
      ["OPTIONS", `/hooks/lastmile/${TOKEN}`],
      ["HEAD", `/hooks/lastmile/${TOKEN}`],
      ["GET", `/hooks/lastmile/${TOKEN}/more?x=1`],
      ["POST", `/hooks/lastmile/${TOKEN}/more`],
    ]) {
      const { lines } = await call(format, method, path)
      expect({ method, path, lines: lines.length }).toEqual({ method, path, lines: 1 })
      expect(lines[0]).toContain(REDACTED_WEBHOOK_PATH)
      expect(lines[0]).not.toContain(TOKEN)
    }
  })

  it("refuses a token that is not valid percent-encoding with 401, before the route's parameter is decoded", async () => {
    for (const method of ["POST", "GET"]) {
      const { status, params } = await call(formats[0][1], method, "/hooks/lastmile/%FF")
      expect({ method, status }).toEqual({ method, status: 401 })
      expect(params).toEqual([])
    }
  })
})
