import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CheckCircleSolid, ExclamationCircleSolid, TruckFast } from "@medusajs/icons"
import { Badge, Button, Container, Copy, Heading, Switch, Table, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type Overview, sdk } from "../../../lib/sdk"

const LastmileSettingsPage = () => {
  const client = useQueryClient()
  const { data, isLoading } = useQuery({
    queryKey: ["lastmile", "overview"],
    queryFn: () => sdk.client.fetch<Overview>("/admin/lastmile"),
  })
  const toggle = useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      sdk.client.fetch(`/admin/lastmile/locations/${id}/collection`, { method: "POST", body: { enabled } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["lastmile"] }),
    onError: (error: Error) => toast.error(error.message),
  })
  const setup = useMutation({
    mutationFn: () =>
      sdk.client.fetch<{ created: string[]; unchanged: string[] }>("/admin/lastmile/setup", { method: "POST" }),
    onSuccess: (report) => {
      toast.success(
        report.created.length ? `Created ${report.created.length} item(s)` : "Everything was already set up"
      )
      client.invalidateQueries({ queryKey: ["lastmile"] })
    },
    onError: (error: Error) => toast.error(error.message),
  })

  if (isLoading || !data) {
    return (
      <Container>
        <Text>Loading…</Text>
      </Container>
    )
  }
  return (
    <div className="flex flex-col gap-y-3">
      <Container className="divide-y p-0">
        <div className="flex items-center justify-between px-6 py-4">
          <Heading level="h1">Lastmile</Heading>
          <Badge color={data.connection.ok ? "green" : "red"} data-testid="lastmile-connection">
            {data.connection.ok ? "Connected" : "Not connected"}
          </Badge>
        </div>
        <div className="px-6 py-4">
          <Text size="small">{data.connection.message}</Text>
          {data.connection.base_url && (
            <Text size="small" className="text-ui-fg-subtle">
              Service: {data.connection.base_url} (API key set, never shown)
            </Text>
          )}
        </div>
        <div className="flex items-center gap-x-2 px-6 py-4">
          <Text size="small" weight="plus">
            Webhook URL
          </Text>
          {data.webhook.url ? (
            <>
              <code className="text-ui-fg-subtle text-xs" data-testid="lastmile-webhook-url">
                {data.webhook.url}
              </code>
              <Copy content={data.webhook.url} />
            </>
          ) : (
            <Text size="small">Set webhook_secret in the provider options to receive webhooks.</Text>
          )}
        </div>
      </Container>

      <Container className="p-0">
        <div className="px-6 py-4">
          <Heading level="h2">Checks</Heading>
        </div>
        <ul className="px-6 pb-4" data-testid="lastmile-checks">
          {data.checks.map((check) => (
            <li key={check.id} className="flex items-start gap-x-2 py-1">
              {check.ok ? (
                <CheckCircleSolid className="text-ui-fg-interactive" />
              ) : (
                <ExclamationCircleSolid className="text-ui-fg-error" />
              )}
              <Text size="small">{check.message}</Text>
            </li>
          ))}
        </ul>
      </Container>

      <Container className="p-0">
        <div className="flex items-center justify-between px-6 py-4">
          <Heading level="h2">Locations at the service</Heading>
          <Button size="small" variant="secondary" isLoading={setup.isPending} onClick={() => setup.mutate()}>
            Set up shipping options
          </Button>
        </div>
        <Table data-testid="lastmile-locations">
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Location</Table.HeaderCell>
              <Table.HeaderCell>External id</Table.HeaderCell>
              <Table.HeaderCell>Medusa stock location</Table.HeaderCell>
              <Table.HeaderCell>Click & collect option</Table.HeaderCell>
              <Table.HeaderCell>Collection enabled</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.locations.map((location) => (
              <Table.Row
                key={location.fulfilment_location_id}
                data-testid={`lastmile-location-${location.external_location_id}`}
              >
                <Table.Cell>
                  {location.name ?? location.fulfilment_location_id}
                  {location.delivery_enabled && (
                    <Badge size="2xsmall" className="ml-2">
                      dispatch
                    </Badge>
                  )}
                </Table.Cell>
                <Table.Cell>{location.external_location_id ?? "—"}</Table.Cell>
                <Table.Cell>
                  {location.stock_location ? location.stock_location.name : <Badge color="orange">No match</Badge>}
                </Table.Cell>
                <Table.Cell>{location.has_collection_option ? "Yes" : "No"}</Table.Cell>
                <Table.Cell>
                  <Switch
                    aria-label={`Collection at ${location.name ?? location.fulfilment_location_id}`}
                    checked={location.collection_enabled}
                    disabled={toggle.isPending}
                    onCheckedChange={(enabled) => toggle.mutate({ id: location.fulfilment_location_id, enabled })}
                  />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </Container>
    </div>
  )
}

export const config = defineRouteConfig({ label: "Lastmile", icon: TruckFast })

export default LastmileSettingsPage
