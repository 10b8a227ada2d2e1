/**
 * The demo's mailbox: the local provider's messages to a shopper rebuilt from `data` by the plugin's renderer; the code
 * (kept out of `data`, decision 65) from the shopper's order page route. storefront-server.ts decides who reads what.
 */
import { renderNotification, renderSms } from "../src/lib/notifications/render-notification"
import { CODE_EVENTS, type LastmileNotificationData } from "../src/lib/notifications/notification-data"
import type { MailboxSource } from "./storefront-server"
import { shownCode } from "../src/lib/collection/collection-code"

export interface MailboxMessage {
  id: string
  /** "email", or "sms" for a text to the order's phone. */
  channel: string
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
  channel: string
  to: string
  created_at: string
  template: string
  resource_id?: string | null
  data: LastmileNotificationData | null
}

export class DemoMailbox implements MailboxSource {
  private token: Promise<string> | null = null

  constructor(
    private readonly medusaUrl: string,
    private readonly admin: { email: string; password: string },
    private readonly publishableKey: string
  ) {}

  /** The code the shopper's order page shows now (`booking.collection.code`), or null. */
  private async collectionCode(orderId: string): Promise<string | null> {
    const response = await fetch(`${this.medusaUrl}/store/lastmile/orders/${encodeURIComponent(orderId)}/booking`, {
      headers: { "x-publishable-api-key": this.publishableKey },
    })
    if (!response.ok) {
      return null
    }
    const body = (await response.json()) as { booking?: { collection?: { code?: string | null } | null } }
    return body.booking?.collection?.code ?? null
  }

  /** A collection message's data with the code its shopper was sent, where the order page still shows it. */
  private async withCode(n: Listed, codes: Map<string, Promise<string | null>>): Promise<Listed> {
    const collection = n.data?.collection
    if (!n.data || !collection || collection.code || !n.resource_id || !CODE_EVENTS.has(n.data.event)) {
      return n
    }
    // An order's messages share one read of its page.
    if (!codes.has(n.resource_id)) {
      codes.set(n.resource_id, this.collectionCode(n.resource_id))
    }
    const code = await codes.get(n.resource_id)!
    return code ? { ...n, data: { ...n.data, collection: { ...collection, code, code_text: shownCode(code) } } } : n
  }

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

  /** GET on the admin API as the demo's admin (signed in again once when the session ended). */
  private async adminGet<T>(path: string): Promise<{ status: number; body: T | null }> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await fetch(`${this.medusaUrl}${path}`, {
        headers: { authorization: `Bearer ${await this.signIn()}` },
      })
      if (response.status === 401) {
        this.token = null
        continue
      }
      return { status: response.status, body: response.ok ? ((await response.json()) as T) : null }
    }
    throw new Error("the admin's session could not be opened")
  }

  /** An order's email and when it was placed (what the storefront's server checks before remembering it). */
  async order(orderId: string): Promise<{ email: string | null; created_at: string } | null> {
    const { status, body } = await this.adminGet<{ order: { email: string | null; created_at: string } }>(
      `/admin/orders/${encodeURIComponent(orderId)}?fields=id,email,created_at`
    )
    if (status === 404) {
      return null
    }
    if (!body) {
      throw new Error(`GET /admin/orders/:id answered ${status}`)
    }
    return { email: body.order.email, created_at: body.order.created_at }
  }

  /** The email channel's messages to `email` and the texts about its orders, oldest first, each with its order. */
  async messages(email: string): Promise<(MailboxMessage & { order_id: string | null })[]> {
    const list = async (query: Record<string, string>) => {
      const params = new URLSearchParams({
        ...query,
        order: "created_at",
        limit: "100",
        fields: "id,channel,to,created_at,template,resource_id,data",
      })
      const { status, body } = await this.adminGet<{ notifications: Listed[] }>(`/admin/notifications?${params}`)
      if (!body) {
        throw new Error(`GET /admin/notifications answered ${status}`)
      }
      return body.notifications
    }
    // Texts go to a phone: the shopper's are those about an order placed with this email.
    const [emails, texts] = await Promise.all([
      list({ to: email, channel: "email" }),
      list({ channel: "sms" }).then((all) => all.filter((n) => n.data?.order?.email === email)),
    ])
    const codes = new Map<string, Promise<string | null>>()
    const listed = await Promise.all([...emails, ...texts].map((n) => this.withCode(n, codes)))
    return listed
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
      .flatMap((n) => {
        // Only the plugin's messages carry its data; anything else is left out of this mailbox.
        if (!n.data?.event || !n.data.order) {
          return []
        }
        const words =
          n.channel === "sms"
            ? { subject: `Text message to ${n.to}`, text: renderSms(n.data) ?? "" }
            : renderNotification(n.data)
        return [
          {
            id: n.id,
            channel: n.channel,
            created_at: n.created_at,
            template: n.template,
            event: n.data.event,
            order: n.data.order.name,
            order_id: n.resource_id ?? null,
            subject: words.subject,
            text: words.text,
          },
        ]
      })
  }
}
