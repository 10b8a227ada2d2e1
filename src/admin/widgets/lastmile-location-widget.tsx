import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminStockLocation, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Container, Heading, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { type StockLocationLastmileView, sdk, stockLocationQueryKey } from "../lib/sdk"
import { WRAP_ANYWHERE, shown } from "../lib/shown-text"

const LastmileLocationWidget = ({ data: location }: DetailWidgetProps<AdminStockLocation>) => {
  const { data } = useQuery({
    queryKey: [...stockLocationQueryKey, location.id],
    queryFn: () => sdk.client.fetch<StockLocationLastmileView>(`/admin/lastmile/stock-locations/${location.id}`),
  })
  if (!data) {
    return null
  }
  return (
    <Container className="flex flex-col gap-y-2 px-6 py-4" data-testid="lastmile-location-widget" style={WRAP_ANYWHERE}>
      <Heading level="h2">Lastmile</Heading>
      {!data.connected ? (
        <Text size="small">{data.message}</Text>
      ) : !data.location ? (
        <Text size="small" data-testid="lastmile-location-widget-unlinked">
          Not linked to a location at the lastmile service: link it in Settings → Lastmile.
        </Text>
      ) : (
        <>
          <Text size="small">
            {shown(data.location.name)} ({shown(data.location.external_location_id, 100)})
            {data.is_dispatch ? " · dispatch location" : ""}
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
