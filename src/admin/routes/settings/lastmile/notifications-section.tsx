import { Badge, Button, Container, Heading, Input, Label, Table, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { type NotificationTestReport, type NotificationsOverview, sdk } from "../../../lib/sdk"

const ROLE_WORDS: Record<NotificationsOverview["channels"][number]["role"], string> = {
  shopper_email: "Shopper's email",
  shopper_sms: "Shopper's texts",
  merchant_feed: "Your notification bell",
  merchant_email: "Your email addresses",
}

const STATUS_WORDS: Record<
  NotificationTestReport["results"][number]["status"],
  { text: string; color: "green" | "orange" | "red" | "grey" }
> = {
  sent: { text: "sent", color: "green" },
  not_sent: { text: "not sent", color: "orange" },
  failed: { text: "failed", color: "red" },
  no_provider: { text: "no provider", color: "grey" },
}

/**
 * Settings → Lastmile's Notifications section (decision 61): which messages are on, each channel and the provider
 * that serves it (a channel with none said here), and "Send a test" of every message to an address or phone the
 * merchant types, with what each provider answered.
 */
export const NotificationsSection = () => {
  const overview = useQuery({
    queryKey: ["lastmile", "notifications"],
    queryFn: () => sdk.client.fetch<NotificationsOverview>("/admin/lastmile/notifications"),
  })
  const [email, setEmail] = useState("")
  const [phone, setPhone] = useState("")
  const [error, setError] = useState<string | null>(null)
  const test = useMutation({
    mutationFn: (body: { email?: string; phone?: string }) =>
      sdk.client.fetch<NotificationTestReport>("/admin/lastmile/notifications/test", { method: "POST", body }),
    onSuccess: (report) => {
      setError(null)
      const sent = report.results.filter((r) => r.status === "sent").length
      toast.success(`${sent} of ${report.results.length} test messages sent`)
    },
    onError: (failure: Error) => {
      setError(failure.message)
      toast.error(failure.message)
    },
  })
  const data = overview.data
  const send = () =>
    test.mutate({ ...(email.trim() ? { email: email.trim() } : {}), ...(phone.trim() ? { phone: phone.trim() } : {}) })

  return (
    <Container className="divide-y p-0" data-testid="lastmile-notifications">
      <div className="px-6 py-4">
        <Heading level="h2">Notifications</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          The messages the plugin sends your shoppers and you, through your notification providers.
        </Text>
      </div>
      {overview.error && (
        <Text size="small" className="text-ui-fg-error px-6 py-4">
          {overview.error.message}
        </Text>
      )}
      {data && !data.enabled && (
        <Text size="small" className="px-6 py-4" data-testid="lastmile-notifications-off">
          Messages are off (notifications: false).
        </Text>
      )}
      {data && (
        <Table data-testid="lastmile-notification-channels">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Goes to</Table.HeaderCell>
              <Table.HeaderCell>Channel</Table.HeaderCell>
              <Table.HeaderCell>Provider</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.channels.map((c) => (
              <Table.Row key={c.role} data-testid={`lastmile-notification-channel-${c.role}`}>
                <Table.Cell>
                  {ROLE_WORDS[c.role]}
                  {c.recipients?.length ? ` (${c.recipients.join(", ")})` : ""}
                </Table.Cell>
                <Table.Cell>{c.channel ?? "not set"}</Table.Cell>
                <Table.Cell data-testid={`lastmile-notification-provider-${c.role}`}>
                  {!c.channel ? (
                    <Text size="small" className="text-ui-fg-subtle">
                      —
                    </Text>
                  ) : c.provider ? (
                    `${c.provider.name ?? c.provider.id} (${c.provider.resolve})${c.requires_message_id ? ", must answer with a message id" : ""}`
                  ) : (
                    <Badge size="2xsmall" color="red">
                      no provider: nothing is sent
                    </Badge>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
      {data && (
        <div className="flex flex-col gap-y-2 px-6 py-4" data-testid="lastmile-notification-events">
          <Text size="small" weight="plus">
            Messages (words in {data.locales.with_words.join(", ")}; default {data.locales.default}
            {data.time_zone ? `; times in ${data.time_zone}` : "; times in the store's zone, else UTC"})
          </Text>
          <div className="flex flex-wrap gap-1">
            {data.events.map((e) => (
              <Badge
                key={e.event}
                size="2xsmall"
                color={e.on ? (e.audience === "merchant" ? "purple" : "blue") : "grey"}
                data-testid={`lastmile-notification-event-${e.event}`}
              >
                {e.event}
                {e.by_sms ? " + SMS" : ""}
                {e.on ? "" : " (off)"}
              </Badge>
            ))}
          </div>
        </div>
      )}
      <div className="flex flex-wrap items-end gap-4 px-6 py-4">
        <div className="flex flex-col gap-y-1">
          <Label size="small" htmlFor="lastmile-test-email">
            Email address
          </Label>
          <Input
            id="lastmile-test-email"
            size="small"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-testid="lastmile-test-email"
          />
        </div>
        <div className="flex flex-col gap-y-1">
          <Label size="small" htmlFor="lastmile-test-phone">
            Phone (international, e.g. +44 7911 123457)
          </Label>
          <Input
            id="lastmile-test-phone"
            size="small"
            type="tel"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            data-testid="lastmile-test-phone"
          />
        </div>
        <Button
          size="small"
          variant="secondary"
          isLoading={test.isPending}
          disabled={!email.trim() && !phone.trim()}
          onClick={send}
          data-testid="lastmile-test-send"
        >
          Send a test
        </Button>
      </div>
      {error && (
        <Text size="small" className="text-ui-fg-error px-6 py-4" data-testid="lastmile-test-error">
          {error}
        </Text>
      )}
      {test.data && !error && (
        <Table data-testid="lastmile-test-results">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Message</Table.HeaderCell>
              <Table.HeaderCell>To</Table.HeaderCell>
              <Table.HeaderCell>Provider answered</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {test.data.results.map((r, i) => (
              <Table.Row
                key={i}
                data-testid="lastmile-test-result"
                data-event={r.event}
                data-via={r.via}
                data-status={r.status}
              >
                <Table.Cell>
                  <Text size="small" weight="plus">
                    {r.subject}
                  </Text>
                  <Text size="xsmall" className="text-ui-fg-subtle">
                    {r.event} · {r.channel}
                  </Text>
                </Table.Cell>
                <Table.Cell>{r.to}</Table.Cell>
                <Table.Cell>
                  <Badge size="2xsmall" color={STATUS_WORDS[r.status].color}>
                    {STATUS_WORDS[r.status].text}
                  </Badge>{" "}
                  <Text size="xsmall" className="text-ui-fg-subtle">
                    {r.provider ?? ""}
                    {r.external_id ? ` · id ${r.external_id}` : ""}
                    {r.error ? ` · ${r.error}` : ""}
                  </Text>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      )}
    </Container>
  )
}
