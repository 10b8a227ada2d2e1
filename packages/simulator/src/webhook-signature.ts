/**
 * How the simulated service signs its webhooks. The simulator plays the
 * service, and the service defines its own signature format (the spec does
 * not show one), so the simulator has its own signer instead of borrowing the
 * plugin's: whatever the plugin accepts is then tested against the service's
 * format, not against itself.
 */
import { createHmac } from "node:crypto"

/** HMAC-SHA256 of the raw body under `secret`, hex, with a `sha256=` prefix. */
export function signWebhookBody(rawBody: string | Buffer, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`
}
