import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CheckCircleSolid, ExclamationCircleSolid, TruckFast } from "@medusajs/icons"
import { Badge, Container, Copy, Heading, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { useMemo } from "react"
import { type Overview, overviewQueryKey, sdk } from "../../../lib/sdk"
import { WRAP_ANYWHERE } from "../../../lib/shown-text"
import { ServiceLocationsSection, StockLocationsSection, useLocationLists } from "./location-tables"
import { SetupSection } from "./setup-section"
import { NotificationsSection } from "./notifications-section"

/** More than a store has: the list is read whole. */
const ALL = { limit: 1000, fields: "id,name" }

/** Where the webhook URL's address came from, and whether the merchant should pin it. */
const URL_SOURCE_WORDS: Record<NonNullable<Overview["webhook"]["url_source"]>, string> = {
  backend_url: "From the plugin's backend_url option.",
  "admin.backendUrl": "From Medusa's admin.backendUrl.",
  forwarded_headers:
    "From your proxy's X-Forwarded-Proto and X-Forwarded-Host (trust_forwarded_headers). Set backend_url to pin it.",
  request:
    "From the address you reached this page at. If the service reaches your backend at another address, set the plugin's backend_url.",
}

/**
 * Settings → Lastmile: the connection and webhook URL, the checks, the
 * service's locations each linked to a Medusa stock location (or linked,
 * created or unlinked here), the Medusa locations with their sales channels,
 * and the one-click setup. Everything a merchant needs to set up, no API call.
 */
const LastmileSettingsPage = () => {
  const { data, isLoading, error } = useQuery({
    queryKey: overviewQueryKey,
    queryFn: () => sdk.client.fetch<Overview>("/admin/lastmile"),
  })
  const channels = useQuery({
    queryKey: ["lastmile", "sales-channels"],
    queryFn: () => sdk.admin.salesChannel.list(ALL),
  })
  // The overview lists every stock location already; what the tables derive of it is read once per overview.
  const { stockLocations, mapping, serviceLocations } = useLocationLists(data ?? null)
  const salesChannels = useMemo(
    () => (channels.data?.sales_channels ?? []).map(({ id, name }) => ({ id, name })),
    [channels.data]
  )

  if (error) {
    return (
      <Container>
        <Text className="text-ui-fg-error" data-testid="lastmile-load-error">
          {error.message}
        </Text>
      </Container>
    )
  }
  if (isLoading || !data) {
    return (
      <Container>
        <Text>Loading…</Text>
      </Container>
    )
  }

  return (
    <div className="flex flex-col gap-y-3" data-testid="lastmile-settings">
      <Container className="divide-y p-0">
        <div className="flex items-center justify-between px-6 py-4">
          <Heading level="h1">Lastmile</Heading>
          <Badge color={data.connection.ok ? "green" : "red"} data-testid="lastmile-connection">
            {data.connection.ok ? "Connected" : "Not connected"}
          </Badge>
        </div>
        <div className="px-6 py-4">
          <Text size="small" data-testid="lastmile-connection-message">
            {data.connection.message}
          </Text>
          {data.connection.base_url && (
            <Text size="small" className="text-ui-fg-subtle">
              Service: {data.connection.base_url} (API key set, never shown)
            </Text>
          )}
        </div>
        <div className="flex flex-col gap-y-1 px-6 py-4">
          <div className="flex items-center gap-x-2">
            <Text size="small" weight="plus">
              Webhook URL
            </Text>
            {data.webhook.url ? (
              <>
                <code className="text-ui-fg-subtle text-xs" data-testid="lastmile-webhook-url" style={WRAP_ANYWHERE}>
                  {data.webhook.url}
                </code>
                <Copy content={data.webhook.url} />
              </>
            ) : (
              <Text size="small">
                {data.webhook.path
                  ? "This request's address cannot make a URL: set backend_url in the plugin's options."
                  : "Set webhook_secret in the provider options to receive webhooks."}
              </Text>
            )}
          </div>
          {data.webhook.url && data.webhook.url_source && (
            <Text size="xsmall" className="text-ui-fg-subtle" data-testid="lastmile-webhook-url-source">
              {URL_SOURCE_WORDS[data.webhook.url_source]}
            </Text>
          )}
        </div>
      </Container>

      <Container className="p-0">
        <div className="px-6 py-4">
          <Heading level="h2">Checks</Heading>
        </div>
        <ul className="px-6 pb-4" data-testid="lastmile-checks">
          {data.checks.map((check) => (
            <li
              key={check.id}
              className="flex items-start gap-x-2 py-1"
              data-testid={`lastmile-check-${check.id}`}
              data-ok={check.ok}
            >
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

      <ServiceLocationsSection locations={data.locations} stockLocations={stockLocations} mapping={mapping} />

      <StockLocationsSection stockLocations={data.stock_locations} serviceLocations={serviceLocations} />

      <SetupSection stockLocations={stockLocations} salesChannels={salesChannels} dispatch={data.dispatch_location} />

      <NotificationsSection />
    </div>
  )
}

export const config = defineRouteConfig({ label: "Lastmile", icon: TruckFast })

export default LastmileSettingsPage
