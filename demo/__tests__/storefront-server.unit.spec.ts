/**
 * The demo's storefront server sent what any web page or hostile client can: undecodable paths, foreign Hosts, cross-site
 * requests, forged cookies, another shopper's address; a 4xx each, mail only to its own browser, and it keeps running.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { type Server, request } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MAILBOX_COOKIE, type MailboxSource, serveStorefront } from "../storefront-server"

const RUN_KEY = "run-key-0123456789abcdef"
const placed = new Date().toISOString()

/** Medusa's admin API as the mailbox reads it: two of Ada's orders (only one from this browser) and Bob's. */
const mailbox: MailboxSource & { failing: boolean } = {
  failing: false,
  async order(orderId) {
    if (this.failing) {
      throw new Error("Medusa is restarting")
    }
    const orders: Record<string, { email: string; created_at: string }> = {
      order_ada1: { email: "ada@example.com", created_at: placed },
      order_ada2: { email: "ada@example.com", created_at: placed },
      order_old: { email: "ada@example.com", created_at: new Date(Date.now() - 3 * 3600_000).toISOString() },
      order_bob: { email: "bob@example.com", created_at: placed },
    }
    return orders[orderId] ?? null
  },
  async messages(email) {
    if (this.failing) {
      throw new Error("GET /admin/notifications answered 503")
    }
    const of = (id: string, order: string, order_id: string) => ({
      id,
      channel: "email",
      created_at: placed,
      template: "lastmile-booked",
      event: "booked",
      order,
      order_id,
      subject: `Your order ${order} is booked`,
      text: "Booked.",
    })
    return email === "ada@example.com"
      ? [of("noti_1", "#1001", "order_ada1"), of("noti_2", "#1002", "order_ada2")]
      : [of("noti_3", "#1003", "order_bob")]
  },
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

describe("the demo's storefront server", () => {
  let dir: string
  let server: Server
  let port: number

  /** A raw request: any path bytes, Host, Origin or cookie, as a browser or a crafted client sends them. */
  const send = (
    path: string,
    { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {}
  ): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method,
          path,
          headers: { host: `localhost:${port}`, ...headers },
          agent: false,
        },
        (res) => {
          let text = ""
          res.setEncoding("utf8")
          res.on("data", (chunk) => (text += chunk))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
        }
      )
      req.on("error", reject)
      req.end(body)
    })
  const cookieFrom = (answer: Answer) => String(answer.headers["set-cookie"] ?? "").split(";")[0]
  const claim = (orderId: string, headers: Record<string, string> = {}) =>
    send("/mailbox/orders", {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://localhost:${port}`, ...headers },
      body: JSON.stringify({ order_id: orderId }),
    })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "demo-storefront-"))
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>Demo</title>")
    const config = { medusaUrl: "http://localhost:9000", publishableKey: "pk_test", regionId: "reg_1" }
    server = await serveStorefront(dir, 0, "127.0.0.1", config, mailbox, { runKey: RUN_KEY })
    port = (server.address() as AddressInfo).port
  })

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    rmSync(dir, { recursive: true, force: true })
  })

  afterEach(() => {
    mailbox.failing = false
  })

  it("answers a path that is not valid percent-encoding with a 400, and keeps running", async () => {
    for (const path of ["/%FF", "/%C3%28", "/abc%E2%82", "/%ED%A0%80", "/mailbox.json%FF?email=x", "/%00"]) {
      const answer = await send(path)
      expect({ path, status: answer.status }).toEqual({ path, status: 400 })
    }
    expect((await send("/")).status).toBe(200)
    expect((await send("/config.json")).body).toContain("pk_test")
  })

  it("keeps running when the mail cannot be read, answering the request with the cause", async () => {
    const cookie = cookieFrom(await claim("order_ada1"))
    mailbox.failing = true
    const failed = await send("/mailbox.json?email=ada@example.com", { headers: { cookie } })
    expect(failed.status).toBe(502)
    const claimed = await claim("order_ada2", { cookie })
    expect(claimed.status).toBe(500)
    mailbox.failing = false
    expect((await send("/mailbox.json?email=ada@example.com", { headers: { cookie } })).status).toBe(200)
  })

  it("refuses the mailbox to a foreign Host, a cross-site Origin or Sec-Fetch-Site, whatever the cookie", async () => {
    const cookie = cookieFrom(await claim("order_ada1"))
    const refused: Record<string, string>[] = [
      { host: "evil.example" },
      { host: `evil.example:${port}` },
      { host: "127.0.0.1.nip.io" },
      { origin: "http://evil.example" },
      { origin: `http://evil.example:${port}` },
      { origin: "null" },
      { origin: "http://localhost:1" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ]
    for (const headers of refused) {
      const read = await send("/mailbox.json?email=ada@example.com", { headers: { ...headers, cookie } })
      expect({ headers, status: read.status, body: read.body.includes("Booked") }).toEqual({
        headers,
        status: 403,
        body: false,
      })
      expect((await claim("order_ada2", { ...headers, cookie })).status).toBe(403)
      expect((await send(`/mailbox?key=${RUN_KEY}`, { headers })).status).toBe(403)
    }
    // The page's own requests: its Origin, or same-origin.
    const own: Record<string, string>[] = [{ origin: `http://localhost:${port}` }, { "sec-fetch-site": "same-origin" }]
    for (const headers of own) {
      expect((await send("/mailbox.json?email=ada@example.com", { headers: { ...headers, cookie } })).status).toBe(200)
    }
  })

  it("shows an address's mail only to the browser that ordered for it, and only those orders' mail", async () => {
    // A browser that placed nothing reads nothing.
    const stranger = await send("/mailbox.json?email=ada@example.com")
    expect(stranger.status).toBe(403)
    expect(stranger.body).not.toContain("Booked")

    const placedHere = await claim("order_ada1")
    expect(placedHere.status).toBe(200)
    expect(placedHere.headers["set-cookie"]).toEqual([expect.stringMatching(/HttpOnly; SameSite=Strict$/)])
    const cookie = cookieFrom(placedHere)
    const own = await send("/mailbox.json?email=ADA@example.com", { headers: { cookie } })
    expect(own.status).toBe(200)
    // Ada's other order was placed from another browser: its mail is not shown here.
    expect((JSON.parse(own.body) as { messages: { order: string }[] }).messages.map((m) => m.order)).toEqual(["#1001"])
    expect(own.body).not.toContain("order_ada1")

    // An address this browser never ordered for.
    const bob = await send("/mailbox.json?email=bob@example.com", { headers: { cookie } })
    expect(bob.status).toBe(403)
    expect(bob.body).not.toContain("#1003")

    // A cookie edited to claim Bob's order is not this run's.
    const [payload, signed] = cookie.slice(MAILBOX_COOKIE.length + 1).split(".")
    const edited = JSON.parse(Buffer.from(payload, "base64url").toString()) as { orders: unknown[] }
    edited.orders.push({ id: "order_bob", email: "bob@example.com" })
    const forged = `${MAILBOX_COOKIE}=${Buffer.from(JSON.stringify(edited)).toString("base64url")}.${signed}`
    expect((await send("/mailbox.json?email=bob@example.com", { headers: { cookie: forged } })).status).toBe(403)
  })

  it("remembers only an order just placed, by its id", async () => {
    expect((await claim("order_missing")).status).toBe(404)
    expect((await claim("order_old")).status).toBe(403)
    expect((await claim("not an id")).status).toBe(400)
    const notJson = await send("/mailbox/orders", { method: "POST", body: "{order" })
    expect(notJson.status).toBe(400)
  })

  it("opens every address's mail in the browser that opens the run's printed link, and only with its key", async () => {
    const wrong = await send("/mailbox?key=not-the-key")
    expect(wrong.status).toBe(403)
    expect(wrong.headers["set-cookie"]).toBeUndefined()
    const opened = await send(`/mailbox?key=${RUN_KEY}`)
    expect(opened.status).toBe(303)
    expect(opened.headers.location).toBe("/mailbox")
    const cookie = cookieFrom(opened)
    const bob = await send("/mailbox.json?email=bob@example.com", { headers: { cookie } })
    expect(bob.status).toBe(200)
    expect(bob.body).toContain("#1003")
  })
})
