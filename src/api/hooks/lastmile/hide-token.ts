/**
 * Keeps the webhook's token out of the access log. Medusa's HTTP logger
 * (morgan, in development and with `medusa start`) prints the request's URL
 * when the response has gone; the token is the URL's last segment, so the
 * logged URL is rewritten before that. The route reads the token from
 * `req.params`, which this leaves alone.
 */
import type { MedusaNextFunction } from "@medusajs/framework/http"

export const REDACTED_WEBHOOK_PATH = "/hooks/lastmile/[token]"

export function hideWebhookToken(req: { originalUrl: string }, _res: unknown, next: MedusaNextFunction): void {
  req.originalUrl = REDACTED_WEBHOOK_PATH
  next()
}
