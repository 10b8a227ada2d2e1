/**
 * The control API has no key, so it must be safe to leave running: only a
 * loopback Host, no web page's Origin, and no secret in what it shows.
 */
import { request } from "node:http"
import { LastmileSimulator, londonLocations } from ".."

const KEY = "sim_key_control_0123"
const TOKEN = "whsec_control_token_0123456789"
const SIGNING = "signing-secret-control-0123"

function call(
  sim: LastmileSimulator,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown
): Promise<{ status: number; text: string }> {
  const url = new URL(sim.url)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk) => (text += chunk))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
      }
    )
    req.on("error", reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

describe("the simulator's control API", () => {
  let sim: LastmileSimulator

  beforeEach(async () => {
    sim = new LastmileSimulator({
      config: {
        apiKey: KEY,
        webhookUrl: `http://localhost:9000/hooks/lastmile/${TOKEN}?k=query-secret`,
        webhook: { signingSecret: SIGNING },
      },
      locations: londonLocations(["SKU-1"]),
    })
    await sim.start()
  })

  afterEach(async () => {
    await sim.stop()
  })

  it("answers a loopback Host, with no Origin or its own", async () => {
    const port = new URL(sim.url).port
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `127.0.0.2:${port}`]) {
      expect((await call(sim, "GET", "/__sim/tasks", { host })).status).toBe(200)
    }
    const own = { origin: `http://127.0.0.1:${port}`, "sec-fetch-site": "same-origin" }
    expect((await call(sim, "GET", "/__sim/tasks", own)).status).toBe(200)
  })

  it("refuses another Host (DNS rebinding) and any web page's Origin, changing nothing", async () => {
    const port = new URL(sim.url).port
    const refused: Record<string, string>[] = [
      { host: `evil.example:${port}` },
      { host: `localhost.evil.example:${port}` },
      { host: `127.0.0.1.nip.io:${port}` },
      { host: `127.0.0.1:${port}/x` },
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "http://localhost:8000" },
      { origin: `http://127.0.0.1:${port}.evil.example` },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ]
    for (const headers of refused) {
      const answer = await call(sim, "POST", "/__sim/faults", headers, { operation: "quote", kind: "timeout" })
      expect({ headers, status: answer.status }).toEqual({ headers, status: 403 })
      expect(JSON.parse(answer.text).error.code).toBe("FORBIDDEN")
    }
    const patched = await call(sim, "PATCH", "/__sim/config", { origin: "https://evil.example" }, { apiKey: "mine" })
    expect(patched.status).toBe(403)
    // Nothing changed: quotes still answer with the key, without a fault.
    const quote = await call(sim, "POST", "/task/quotes", { "x-api-key": KEY }, {})
    expect(quote.status).toBe(400)
    expect(sim.state.config.apiKey).toBe(KEY)
    // The service's own API and the tracking pages are for anyone, as the service's are.
    expect((await call(sim, "GET", "/track/none", { host: `evil.example:${port}` })).status).toBe(404)
  })

  it("keeps running whatever a path holds: a tracking page or a location that is not valid percent-encoding", async () => {
    expect((await call(sim, "GET", "/track/%FF")).status).toBe(404)
    expect((await call(sim, "PATCH", "/__sim/locations/%FF", {}, { name: "x" })).status).toBe(400)
    expect((await call(sim, "PATCH", "/fulfilment/fulfilment-locations/%FF", { "x-api-key": KEY }, {})).status).toBe(
      404
    )
    expect((await call(sim, "GET", "/__sim/tasks")).status).toBe(200)
  })

  it("shows no secret: the API key, the signing secret and the webhook URL's token are masked", async () => {
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { latencyMs: 0 }],
    ] as const) {
      const answer = await call(sim, method, "/__sim/config", {}, body)
      expect(answer.status).toBe(200)
      const config = JSON.parse(answer.text)
      expect(config.apiKey).toBe("[set]")
      expect(config.webhook.signingSecret).toBe("[set]")
      expect(config.webhookUrl).toBe("http://localhost:9000/hooks/lastmile/[hidden]")
      for (const secret of [KEY, TOKEN, SIGNING, "query-secret"]) {
        expect(answer.text).not.toContain(secret)
      }
    }
  })
})
