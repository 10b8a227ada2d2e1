/**
 * The shopper's mailbox: every message the shop sent to an address, oldest first, read again every few seconds (the
 * demo's emails go through Medusa's local provider, which only logs them).
 */
import { Badge, Button, Container, Heading, Input, Label, Text } from "@medusajs/ui"
import { type FormEvent, useEffect, useState } from "react"
import { type MailboxMessage, loadMailbox, mailboxPath } from "../lib/mailbox"
import { shown } from "../lib/shown-text"
import { PageShell } from "./page-shell"

const REFRESH_MS = 3000

export function MailboxPage({ email }: { email: string | null }) {
  const [messages, setMessages] = useState<MailboxMessage[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [typed, setTyped] = useState(email ?? "")

  useEffect(() => {
    if (!email) {
      return
    }
    let stopped = false
    const read = () =>
      loadMailbox(email).then(
        (found) => {
          if (!stopped) {
            setMessages(found)
            setError(null)
          }
        },
        (failure: unknown) => !stopped && setError(failure instanceof Error ? failure.message : String(failure))
      )
    void read()
    const timer = setInterval(() => document.visibilityState === "visible" && void read(), REFRESH_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [email])

  const open = (event: FormEvent) => {
    event.preventDefault()
    if (typed.trim()) {
      window.location.assign(mailboxPath(typed.trim()))
    }
  }

  return (
    <PageShell>
      <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid="mailbox">
        <Heading level="h2">Mailbox</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          What the shop emailed {email ? shown(email, 120) : "a shopper"}, oldest first. In the demo, Medusa's local
          notification provider only logs each email; this page shows it as the shopper would read it.
        </Text>
        <form className="flex items-end gap-x-2" onSubmit={open}>
          <div className="flex flex-1 flex-col gap-y-1">
            <Label htmlFor="mailbox-email" size="small">
              Email address
            </Label>
            <Input id="mailbox-email" type="email" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
          <Button type="submit" variant="secondary">
            Open
          </Button>
        </form>
        <a className="text-ui-fg-interactive text-sm" href="/">
          Back to the shop
        </a>
      </Container>
      {error && (
        <Text className="text-ui-fg-error" data-testid="mailbox-error">
          {shown(error)}
        </Text>
      )}
      {email && messages?.length === 0 && (
        <Text className="text-ui-fg-subtle" data-testid="mailbox-empty">
          No messages yet.
        </Text>
      )}
      <ol className="flex flex-col gap-y-3" data-testid="mailbox-messages">
        {messages?.map((message) => (
          <li key={message.id}>
            <Container
              className="flex flex-col gap-y-2 px-6 py-4"
              data-testid="mailbox-message"
              data-event={message.event}
              data-channel={message.channel}
              data-order={message.order}
            >
              <div className="flex items-center justify-between gap-x-2">
                <Heading level="h3" data-testid="mailbox-subject">
                  {shown(message.subject, 200)}
                </Heading>
                <Badge size="2xsmall">{new Date(message.created_at).toLocaleString("en-GB")}</Badge>
              </div>
              <div className="flex flex-col gap-y-1" data-testid="mailbox-text">
                {message.text.split("\n").map((line, i) => (
                  <Text key={i} size="small" className={line ? "" : "h-2"}>
                    {shown(line, 400)}
                  </Text>
                ))}
              </div>
            </Container>
          </li>
        ))}
      </ol>
    </PageShell>
  )
}
