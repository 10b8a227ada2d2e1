/**
 * Keeps the webhook's token out of the access log for every method (decisions 25 and 31); a token that cannot be
 * decoded (`%FF`) is refused here like a wrong one.
 */
import type { MedusaNextFunction } from "@medusajs/framework/http"

export const REDACTED_WEBHOOK_PATH = "/hooks/lastmile/[token]"

interface WebhookRequest {
  originalUrl: string
  url?: string
}

interface Answerable {
  sendStatus(status: number): unknown
}

export function hideWebhookToken(req: WebhookRequest, _res: unknown, next: MedusaNextFunction): void {
  const path = req.originalUrl.split("?")[0]
  if (path !== "/hooks/lastmile" && path !== "/hooks/lastmile/") {
    req.originalUrl = REDACTED_WEBHOOK_PATH
  }
  next()
}

/** 401 without a body for a path whose token is not valid percent-encoding, as for any wrong token. */
export function refuseUnreadableToken(req: WebhookRequest, res: Answerable, next: MedusaNextFunction): void {
  // `url` is what is left below the middleware's mount point: the token and anything after it.
  const rest = (req.url ?? "").split("?")[0]
  try {
    decodeURIComponent(rest)
  } catch {
    res.sendStatus(401)
    return
  }
  next()
}
