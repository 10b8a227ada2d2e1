/**
 * The backend's public URLs (decision 32): an order's admin page and the webhook URL the merchant pastes into the service.
 */
import type { IncomingMessage } from "node:http"
import type { TLSSocket } from "node:tls"
import type { LastmileOverview } from "../contracts/admin-api"

type UrlSource = NonNullable<LastmileOverview["webhook"]["url_source"]>

/** The backend's URL as configured, and which setting said it. */
export interface ConfiguredBackendUrl {
  url: string
  source: "backend_url" | "admin.backendUrl"
}

/**
 * The plugin's `backend_url`, else Medusa's `admin.backendUrl` when it is an
 * absolute http(s) URL without credentials (its default, "/", is not). Null
 * when neither says.
 */
export function configuredBackendUrl(
  backendUrl: string | null | undefined,
  admin: { backendUrl?: string } | undefined
): ConfiguredBackendUrl | null {
  if (backendUrl) {
    return { url: backendUrl, source: "backend_url" }
  }
  try {
    const url = admin?.backendUrl ? new URL(admin.backendUrl) : null
    if (url && (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password) {
      return { url: `${url.origin}${url.pathname}`.replace(/\/+$/, ""), source: "admin.backendUrl" }
    }
  } catch {
    // Not an absolute URL: the request's address is used instead.
  }
  return null
}

/** An order's page in the admin: absolute when the backend's URL is configured, else a path on the backend. */
export function adminOrderUrl(
  configured: ConfiguredBackendUrl | null,
  admin: { path?: string } | undefined,
  orderId: string
): string {
  const path = (admin?.path ?? "/app").replace(/\/+$/, "")
  return `${configured?.url ?? ""}${path}/orders/${encodeURIComponent(orderId)}`
}

export interface WebhookUrl {
  url: string | null
  url_source: UrlSource | null
}

/** The first value of a header a proxy may have appended to. */
function firstValue(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value
  return raw?.split(",")[0]?.trim() || undefined
}

/** `scheme://host[:port]` when both parts are what they claim to be (no path, no credentials), else null. */
function originOf(protocol: string | undefined, host: string | undefined): string | null {
  if ((protocol !== "http" && protocol !== "https") || !host || !/^[a-z0-9.\-[\]:]+$/i.test(host)) {
    return null
  }
  try {
    return new URL(`${protocol}://${host}`).origin
  } catch {
    return null
  }
}

/**
 * The webhook URL: from configuration when there is some, so it never depends
 * on who asks. Otherwise from the request: the proxy's X-Forwarded-Proto and
 * X-Forwarded-Host only with `trust_forwarded_headers` (Medusa 2.21 sets
 * Express's `trust proxy` for every app and offers no setting, so the plugin
 * cannot tell a proxy from a client that sends the headers), else the Host
 * header and the connection itself. The answer says which it used.
 */
export function webhookUrl(
  path: string | null,
  req: Pick<IncomingMessage, "headers" | "socket">,
  options: { configured: ConfiguredBackendUrl | null; trustForwarded: boolean }
): WebhookUrl {
  if (!path) {
    return { url: null, url_source: null }
  }
  if (options.configured) {
    return { url: `${options.configured.url}${path}`, url_source: options.configured.source }
  }
  const encrypted = (req.socket as Partial<TLSSocket> | undefined)?.encrypted === true
  const direct = originOf(encrypted ? "https" : "http", firstValue(req.headers.host))
  if (options.trustForwarded) {
    const forwarded = originOf(
      firstValue(req.headers["x-forwarded-proto"])?.toLowerCase() ?? (encrypted ? "https" : "http"),
      firstValue(req.headers["x-forwarded-host"]) ?? firstValue(req.headers.host)
    )
    if (forwarded) {
      return { url: `${forwarded}${path}`, url_source: "forwarded_headers" }
    }
  }
  return direct ? { url: `${direct}${path}`, url_source: "request" } : { url: null, url_source: null }
}
