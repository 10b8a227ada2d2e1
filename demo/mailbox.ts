/**
 * The demo's mailbox: what Medusa's local notification provider "sent" a shopper, as `GET /admin/notifications` lists
 * it, with subject and text rebuilt from each `data` by the plugin's renderer (served as /mailbox.json, loopback only).
 */
import { renderNotification } from "../src/lib/notifications/render-notification"
import type { LastmileNotificationData } from "../src/lib/notifications/notification-data"

export interface MailboxMessage {
  id: string
  created_at: string
  template: string
  event: string
  /** "#1001" */
  order: string
  subject: string
  text: string
}

interface Listed {
  id: string
  created_at: string
  template: string
  data: LastmileNotificationData | null
}

export class DemoMailbox {
  private token: Promise<string> | null = null

  constructor(
    private readonly medusaUrl: string,
    private readonly admin: { email: string; password: string }
  ) {}

  private signIn(): Promise<string> {
    this.token ??= fetch(`${this.medusaUrl}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(this.admin),
    }).then(async (response) => {
      if (!response.ok) {
        this.token = null
        throw new Error(`signing in to the admin answered ${response.status}`)
      }
      return ((await response.json()) as { token: string }).token
    })
    return this.token
  }

  /** The email channel's messages to `email`, oldest first. */
  async messages(email: string): Promise<MailboxMessage[]> {
    const query = new URLSearchParams({
      to: email,
      channel: "email",
      order: "created_at",
      limit: "100",
      fields: "id,created_at,template,data",
    })
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await fetch(`${this.medusaUrl}/admin/notifications?${query}`, {
        headers: { authorization: `Bearer ${await this.signIn()}` },
      })
      if (response.status === 401) {
        this.token = null
        continue
      }
      if (!response.ok) {
        throw new Error(`GET /admin/notifications answered ${response.status}`)
      }
      const { notifications } = (await response.json()) as { notifications: Listed[] }
      return notifications.flatMap((n) => {
        // Only the plugin's messages carry its data; anything else is left out of this mailbox.
        if (!n.data?.event || !n.data.order) {
          return []
        }
        const { subject, text } = renderNotification(n.data)
        return [
          {
            id: n.id,
            created_at: n.created_at,
            template: n.template,
            event: n.data.event,
            order: n.data.order.name,
            subject,
            text,
          },
        ]
      })
    }
    throw new Error("the admin's session could not be opened")
  }
}
