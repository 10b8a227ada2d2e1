import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminStockLocation, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Container, Heading, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { type StockLocationLastmileView, sdk } from "../lib/sdk"

const LastmileLocationWidget = ({ data: location }: DetailWidgetProps<AdminStockLocation>) => {
  const { data } = useQuery({
    queryKey: ["lastmile", "stock-location", location.id],
    queryFn: () => sdk.client.fetch<StockLocationLastmileView>(`/admin/lastmile/stock-locations/${location.id}`),
  })
  if (!data) {
    return null
  }
  return (
    <Container className="flex flex-col gap-y-2 px-6 py-4" data-testid="lastmile-location-widget">
      <Heading level="h2">Lastmile</Heading>
      {!data.connected ? (
        <Text size="small">{data.message}</Text>
      ) : !data.location ? (
        <Text size="small">
          Not matched to a service location: set this location's address metadata external_location_id to its
          externalLocationId at the service.
        </Text>
      ) : (
        <>
          <Text size="small">
            {data.location.name} ({data.location.external_location_id}){data.is_dispatch ? " · dispatch location" : ""}
          </Text>
          <div className="flex items-center gap-x-2">
            <Text size="small">Click & collect at the service</Text>
            <Badge color={data.location.collection_enabled ? "green" : "grey"}>
              {data.location.collection_enabled ? "Enabled" : "Off"}
            </Badge>
          </div>
          {!data.location.has_collection_option && (
            <Text size="small" className="text-ui-fg-subtle">
              No click-and-collect shipping option here yet: use Settings → Lastmile → Set up shipping options.
            </Text>
          )}
        </>
      )}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "location.details.side.after" })

export default LastmileLocationWidget
