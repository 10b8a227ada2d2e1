/**
 * How the simulated service signs its webhooks: its own signer, not the plugin's, so the plugin's check is tested
 * against the service's format rather than against itself.
 */
import { createHmac } from "node:crypto"

/** HMAC-SHA256 of the raw body under `secret`, hex, with a `sha256=` prefix. */
export function signWebhookBody(rawBody: string | Buffer, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`
}
