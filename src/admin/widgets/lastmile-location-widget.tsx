import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminStockLocation, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Container, Heading, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { type StockLocationLastmileView, sdk, stockLocationQueryKey } from "../lib/sdk"
import { WRAP_ANYWHERE, shown } from "../lib/shown-text"
import { PickupSection } from "./location-pickup"

/**
 * The stock location's page: its location at the lastmile service and its collection state, then what the store
 * tells shoppers who collect there, its closed dates and its position.
 */
const LastmileLocationWidget = ({ data: location }: DetailWidgetProps<AdminStockLocation>) => {
  const { data } = useQuery({
    queryKey: [...stockLocationQueryKey, location.id],
    queryFn: () => sdk.client.fetch<StockLocationLastmileView>(`/admin/lastmile/stock-locations/${location.id}`),
  })
  if (!data) {
    return null
  }
  return (
    <Container className="divide-y p-0" data-testid="lastmile-location-widget" style={WRAP_ANYWHERE}>
      <div className="flex flex-col gap-y-2 px-6 py-4">
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
      </div>
      {/* An older backend answers no pickup: nothing to edit then. */}
      {data.pickup && <PickupSection key={JSON.stringify(data.pickup)} locationId={location.id} pickup={data.pickup} />}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "location.details.side.after" })

export default LastmileLocationWidget
