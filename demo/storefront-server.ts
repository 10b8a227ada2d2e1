/**
 * The demo's shopper storefront (demo/storefront/), built with Vite and served with /config.json and /mailbox.json;
 * it survives any request, and the mailbox answers only this machine's browser for its own orders (or the printed link).
 */
import { execFile } from "node:child_process"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { createReadStream, existsSync, statSync } from "node:fs"
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http"
import { extname, join, normalize, resolve, sep } from "node:path"
import { promisify } from "node:util"
import { controlRefusal } from "../packages/simulator/src"
import type { MailboxMessage } from "./mailbox"

/** What the page reads from /config.json (demo/storefront/lib/demo-config.ts). */
export interface StorefrontConfig {
  medusaUrl: string
  publishableKey: string
  regionId: string
}

export const STOREFRONT_SOURCE = join(process.cwd(), "demo", "storefront")

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".ttf": "font/ttf",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
}

/** The storefront package (packages/storefront), which the page imports as a shop's storefront would. */
const STOREFRONT_PACKAGE_BUILD = join(process.cwd(), "packages", "storefront", "build.mjs")

/**
 * `vite build` of the page into `outDir` (emptied first), after building the
 * storefront package from its source, so the page never runs a stale one.
 * A few seconds.
 */
export async function buildStorefront(outDir: string): Promise<void> {
  await promisify(execFile)(process.execPath, [STOREFRONT_PACKAGE_BUILD])
  // Vite is an ES module, imported dynamically from this CommonJS-compiled script.
  const { build } = await import("vite")
  await build({
    configFile: false,
    root: STOREFRONT_SOURCE,
    base: "/",
    logLevel: "warn",
    publicDir: false,
    // TSX through esbuild's automatic runtime: no React plugin needed for a production build.
    esbuild: { jsx: "automatic" },
    build: {
      outDir,
      emptyOutDir: true,
      chunkSizeWarningLimit: 2048,
      rollupOptions: {
        // The UI packages mark their modules "use client" for React Server Components; a browser bundle ignores it.
        onwarn: (warning, warn) => {
          if (warning.code !== "MODULE_LEVEL_DIRECTIVE") {
            warn(warning)
          }
        },
      },
    },
  })
}

/** What the server reads of the shop's mail (demo/mailbox.ts reads it from Medusa's admin API). */
export interface MailboxSource {
  /** The email channel's messages to `email`, oldest first, each with the order it is about. */
  messages(email: string): Promise<(MailboxMessage & { order_id: string | null })[]>
  /** An order's email and when it was placed, or null for an order Medusa does not have. */
  order(orderId: string): Promise<{ email: string | null; created_at: string } | null>
}

export interface MailboxAccess {
  /** The per-run link's key: `/mailbox?key=…` opens every address's mail in that browser. */
  runKey: string
  /** Signs the browser's cookie; a new one per run. */
  secret?: Buffer
}

/** The browser's own orders (id and address), or every address's mail; signed, so a browser cannot forge it. */
interface MailboxGrant {
  orders: { id: string; email: string }[]
  all: boolean
}

export const MAILBOX_COOKIE = "lastmile_demo_mailbox"
/** The orders a browser remembers: the latest. */
const MAX_ORDERS = 20
/** An order is remembered by the browser that placed it, within this long of being placed. */
const CLAIM_WITHIN_MS = 60 * 60_000

/**
 * Serves the built page on `port`, `/config.json` from `config`, the
 * mailbox (`/mailbox.json?email=`, `POST /mailbox/orders` at checkout,
 * `/mailbox?key=` from the demo's printout), and index.html for any path
 * that is not a file (the page's own routes, /mailbox among them).
 */
export function serveStorefront(
  dir: string,
  port: number,
  host: string,
  config: StorefrontConfig,
  mailbox: MailboxSource,
  access: MailboxAccess
): Promise<Server> {
  const root = resolve(dir)
  const secret = access.secret ?? randomBytes(32)
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => fail(res, error))
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL
    let path: string
    try {
      url = new URL(req.url ?? "/", "http://localhost")
      path = decodeURIComponent(url.pathname)
    } catch {
      return json(res, 400, { message: "The path is not valid percent-encoded UTF-8." })
    }
    if (path.includes("\0")) {
      return json(res, 400, { message: "The path holds a NUL character." })
    }
    const mailboxPath =
      path === "/mailbox.json" || path === "/mailbox/orders" || (path === "/mailbox" && url.searchParams.has("key"))
    if (mailboxPath) {
      const refusal = mailboxRefusal(req.headers, server)
      if (refusal) {
        return json(res, 403, { message: refusal })
      }
    }
    if (req.method === "POST" && path === "/mailbox/orders") {
      return rememberOrder(req, res)
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end()
      return
    }
    if (path === "/config.json") {
      return json(res, 200, config)
    }
    if (path === "/mailbox" && url.searchParams.has("key")) {
      // The demo's printed link: every address's mail in this browser, then the page without the key in its URL.
      if (!sameSecret(url.searchParams.get("key") ?? "", access.runKey)) {
        return json(res, 403, { message: "That mailbox link is not this run's: use the one `npm run demo` printed." })
      }
      const grant = grantOf(req, secret)
      res.writeHead(303, { location: "/mailbox", "set-cookie": cookieOf({ ...grant, all: true }, secret) }).end()
      return
    }
    if (path === "/mailbox.json") {
      return readMailbox(req, res, url)
    }
    const file = normalize(join(root, path))
    const inside = file === root || file.startsWith(root + sep)
    const target = inside && existsSync(file) && statSync(file).isFile() ? file : join(root, "index.html")
    res.writeHead(200, {
      "content-type": CONTENT_TYPES[extname(target)] ?? "application/octet-stream",
      // Vite names assets by their content; the page itself must always be fresh.
      "cache-control": target.includes(`${sep}assets${sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
    })
    if (req.method === "HEAD") {
      res.end()
      return
    }
    const stream = createReadStream(target)
    stream.on("error", (error) => fail(res, error))
    stream.pipe(res)
  }

  /** At checkout the page says which order it placed: this browser may read that order's mail from now on. */
  async function rememberOrder(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req)
    const orderId = typeof body?.order_id === "string" ? body.order_id.trim() : ""
    if (!/^order_[A-Za-z0-9]{1,64}$/.test(orderId)) {
      return json(res, 400, { message: "order_id must be the id of the order this browser placed." })
    }
    const order = await mailbox.order(orderId)
    if (!order?.email) {
      return json(res, 404, { message: `Order ${orderId} was not found.` })
    }
    if (Date.now() - Date.parse(order.created_at) > CLAIM_WITHIN_MS) {
      return json(res, 403, { message: "Only an order just placed from this browser can be added to its mailbox." })
    }
    const grant = grantOf(req, secret)
    const orders = [{ id: orderId, email: order.email }, ...grant.orders.filter((o) => o.id !== orderId)]
    res.setHeader("set-cookie", cookieOf({ ...grant, orders: orders.slice(0, MAX_ORDERS) }, secret))
    return json(res, 200, { email: order.email })
  }

  async function readMailbox(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const email = url.searchParams.get("email")?.trim() ?? ""
    if (!email) {
      return json(res, 400, { message: "Which mailbox? Add ?email=" })
    }
    const grant = grantOf(req, secret)
    const ordered = grant.orders.filter((o) => o.email.toLowerCase() === email.toLowerCase())
    const own = ordered.map((o) => o.id)
    if (!grant.all && !own.length) {
      return json(res, 403, {
        message:
          "This browser placed no order for that address. The demo's mailbox shows the mail of orders placed from this browser, or any address's through the link `npm run demo` printed.",
      })
    }
    try {
      // Read as the order has the address (Medusa matches it exactly), whatever case the page asked in.
      const messages = await mailbox.messages(ordered[0]?.email ?? email)
      const shown = grant.all ? messages : messages.filter((m) => m.order_id !== null && own.includes(m.order_id))
      return json(res, 200, { email, messages: shown.map(({ order_id: _order, ...message }) => message) })
    } catch (error) {
      return json(res, 502, { message: error instanceof Error ? error.message : String(error) })
    }
  }

  return new Promise((resolvePromise, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => resolvePromise(server))
  })
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": CONTENT_TYPES[".json"], "cache-control": "no-store" })
  res.end(JSON.stringify(body))
}

/** Whatever went wrong inside answers this request, and the server goes on. */
function fail(res: ServerResponse, error: unknown): void {
  process.stderr.write(`demo storefront: ${error instanceof Error ? error.message : String(error)}\n`)
  if (!res.headersSent) {
    json(res, 500, { message: "The demo's storefront server failed on this request." })
  } else {
    res.destroy()
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  let text = ""
  for await (const chunk of req) {
    text += String(chunk)
    if (text.length > 4096) {
      return null
    }
  }
  try {
    const parsed: unknown = JSON.parse(text)
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** Why a mailbox request is refused, or null: the simulator's control API's check (a loopback Host, no other site's page). */
export function mailboxRefusal(headers: IncomingMessage["headers"], server: Pick<Server, "address">): string | null {
  const address = server.address()
  return controlRefusal(headers, address && typeof address === "object" ? address : null, "The demo's mailbox")
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function signature(payload: string, secret: Buffer): string {
  return createHmac("sha256", secret).update(payload).digest("base64url")
}

function cookieOf(grant: MailboxGrant, secret: Buffer): string {
  const payload = Buffer.from(JSON.stringify(grant)).toString("base64url")
  return `${MAILBOX_COOKIE}=${payload}.${signature(payload, secret)}; Path=/; HttpOnly; SameSite=Strict`
}

/** The browser's grant from its cookie; nothing when there is none, or it is not signed by this run. */
function grantOf(req: IncomingMessage, secret: Buffer): MailboxGrant {
  const none: MailboxGrant = { orders: [], all: false }
  const cookie = (req.headers.cookie ?? "")
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${MAILBOX_COOKIE}=`))
  const [payload, signed] = (cookie?.slice(MAILBOX_COOKIE.length + 1) ?? "").split(".")
  if (!payload || !signed || !sameSecret(signed, signature(payload, secret))) {
    return none
  }
  try {
    const grant = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Partial<MailboxGrant>
    return {
      orders: Array.isArray(grant.orders)
        ? grant.orders.filter((o) => typeof o?.id === "string" && typeof o?.email === "string")
        : [],
      all: grant.all === true,
    }
  } catch {
    return none
  }
}
