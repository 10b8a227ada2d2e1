/** The shopper's mailbox, as the demo's server answers /mailbox.json (demo/mailbox.ts). */
export interface MailboxMessage {
  id: string
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
