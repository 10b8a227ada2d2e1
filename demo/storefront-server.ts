/**
 * The demo's shopper storefront (demo/storefront/), built with Vite when the demo starts and served with /config.json
 * (Medusa's address, the publishable key) and /mailbox.json?email= (demo/mailbox.ts), so the page holds no key.
 */
import { execFile } from "node:child_process"
import { createReadStream, existsSync, statSync } from "node:fs"
import { type Server, createServer } from "node:http"
import { extname, join, normalize, resolve, sep } from "node:path"
import { promisify } from "node:util"
import type { DemoMailbox } from "./mailbox"

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

/**
 * Serves the built page on `port`, `/config.json` from `config`,
 * `/mailbox.json?email=` from the mailbox, and index.html for any path that
 * is not a file (the page's own routes, /mailbox among them).
 */
export function serveStorefront(
  dir: string,
  port: number,
  host: string,
  config: StorefrontConfig,
  mailbox: DemoMailbox
): Promise<Server> {
  const root = resolve(dir)
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const path = decodeURIComponent(url.pathname)
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end()
      return
    }
    if (path === "/config.json") {
      res.writeHead(200, { "content-type": CONTENT_TYPES[".json"], "cache-control": "no-store" })
      res.end(JSON.stringify(config))
      return
    }
    if (path === "/mailbox.json") {
      const email = url.searchParams.get("email")?.trim() ?? ""
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": CONTENT_TYPES[".json"], "cache-control": "no-store" })
        res.end(JSON.stringify(body))
      }
      if (!email) {
        answer(400, { message: "Which mailbox? Add ?email=" })
        return
      }
      mailbox.messages(email).then(
        (messages) => answer(200, { email, messages }),
        (error: unknown) => answer(502, { message: error instanceof Error ? error.message : String(error) })
      )
      return
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
    createReadStream(target).pipe(res)
  })
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject)
    server.listen(port, host, () => resolvePromise(server))
  })
}
