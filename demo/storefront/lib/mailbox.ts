/** The shopper's mailbox, as the demo's server answers /mailbox.json (demo/mailbox.ts). */
export interface MailboxMessage {
  id: string
  /** "email", or "sms" for a text to the order's phone. */
  channel: string
  created_at: string
  template: string
  event: string
  order: string
  subject: string
  text: string
}

export async function loadMailbox(email: string): Promise<MailboxMessage[]> {
  const response = await fetch(`/mailbox.json?email=${encodeURIComponent(email)}`, { cache: "no-store" })
  const body = (await response.json().catch(() => ({}))) as { messages?: MailboxMessage[]; message?: string }
  if (!response.ok || !body.messages) {
    throw new Error(body.message ?? `The mailbox answered ${response.status}.`)
  }
  return body.messages
}

/** The mailbox page of an address: where the confirmation links to. */
export function mailboxPath(email: string): string {
  return `/mailbox?email=${encodeURIComponent(email)}`
}

/**
 * Tells the demo's server which order this browser just placed, so its mailbox shows that order's emails (the
 * server remembers it in a cookie of this browser's; nobody else's mail is shown here).
 */
export async function rememberOrder(orderId: string): Promise<void> {
  const response = await fetch("/mailbox/orders", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ order_id: orderId }),
  })
  if (!response.ok) {
    throw new Error(`The mailbox did not take the order (${response.status}).`)
  }
}
