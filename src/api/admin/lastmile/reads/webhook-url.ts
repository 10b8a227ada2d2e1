/**
 * The webhook URL the admin shows the merchant, and where it came from: configuration first, else the request,
 * forwarded headers only with `trust_forwarded_headers` (decision 32).
 */
import type { IncomingMessage } from "node:http"
import type { TLSSocket } from "node:tls"
import type { LastmileOverview } from "../../../../lib/contracts/admin-api"

type UrlSource = NonNullable<LastmileOverview["webhook"]["url_source"]>

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

export function webhookUrl(
  path: string | null,
  req: Pick<IncomingMessage, "headers" | "socket">,
  options: { configured: { url: string; source: "backend_url" | "admin.backendUrl" } | null; trustForwarded: boolean }
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
