import { Badge, Button, Select, Switch, Table, Text, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { memo, useMemo, useState } from "react"
import {
  type LocationMappingResult,
  type LocationView,
  type StockLocationSummary,
  refreshLocationViews,
  sdk,
} from "../../../lib/sdk"
import { WRAP_ANYWHERE, shown } from "../../../lib/shown-text"

/** The key of a location's test ids and row: its external id, else the service's id. */
const locationKey = (location: LocationView) => location.external_location_id ?? location.fulfilment_location_id

type Outcome = { ok: boolean; message: string }

/**
 * One of the service's locations: the Medusa stock location it is linked to
 * (with that location's sales channels) or the controls to link one or create
 * one from the service's name and address, and its collection switch. What
 * the last action did, or why it was refused, stays under the row. Memoised:
 * a search, a page or a keystroke elsewhere re-renders no row that is unchanged.
 */
export const LocationRow = memo(function LocationRow({
  location,
  stockLocations,
  mapping,
}: {
  location: LocationView
  /** Every Medusa stock location (the overview's). */
  stockLocations: { id: string; name: string }[]
  /** Each stock location's link (the overview's), by id. */
  mapping: Map<string, StockLocationSummary>
}) {
  const client = useQueryClient()
  const key = locationKey(location)
  const id = location.fulfilment_location_id
  const [chosen, setChosen] = useState<string | undefined>()
  // The select's options are drawn only while it is open (a closed one draws the chosen one, for its value): a page
  // of rows each holding every stock location would be thousands of items at 150 stores.
  const [picking, setPicking] = useState(false)
  const options = useMemo(
    () => (picking ? stockLocations : stockLocations.filter((stock) => stock.id === chosen)),
    [picking, stockLocations, chosen]
  )
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const done = (result: { message: string }) => {
    setOutcome({ ok: true, message: result.message })
    toast.success(result.message)
    setChosen(undefined)
    refreshLocationViews(client)
  }
  const refused = (error: Error) => {
    setOutcome({ ok: false, message: error.message })
    toast.error(error.message)
    refreshLocationViews(client)
  }
  const link = useMutation({
    mutationFn: (stockLocationId: string) =>
      sdk.client.fetch<LocationMappingResult>(`/admin/lastmile/locations/${id}/link`, {
        method: "POST",
        body: { stock_location_id: stockLocationId },
      }),
    onSuccess: done,
    onError: refused,
  })
  const create = useMutation({
    mutationFn: () =>
      sdk.client.fetch<LocationMappingResult>(`/admin/lastmile/locations/${id}/stock-location`, {
        method: "POST",
        body: {},
      }),
    onSuccess: done,
    onError: refused,
  })
  const unlink = useMutation({
    mutationFn: () =>
      sdk.client.fetch<LocationMappingResult>(`/admin/lastmile/locations/${id}/link`, { method: "DELETE" }),
    onSuccess: done,
    onError: refused,
  })
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      sdk.client.fetch(`/admin/lastmile/locations/${id}/collection`, { method: "POST", body: { enabled } }),
    onSuccess: (_, enabled) =>
      done({ message: `Collection ${enabled ? "enabled" : "disabled"} at ${shown(location.name ?? key)}.` }),
    onError: refused,
  })
  const busy = link.isPending || create.isPending || unlink.isPending || toggle.isPending
  const linked = location.stock_location

  return (
    <Table.Row data-testid={`lastmile-location-${key}`} data-fulfilment-location-id={id}>
      <Table.Cell>
        <div className="flex max-w-xs flex-col py-2" style={WRAP_ANYWHERE}>
          <Text size="small" weight="plus">
            {shown(location.name ?? id)}
            {location.delivery_enabled && (
              <Badge size="2xsmall" className="ml-2">
                dispatch
              </Badge>
            )}
          </Text>
          <Text size="xsmall" className="text-ui-fg-subtle">
            {shown(location.external_location_id ?? "no external id", 100)}
          </Text>
        </div>
      </Table.Cell>
      <Table.Cell>
        <div className="flex flex-col gap-y-2 py-2">
          {linked ? (
            <div className="flex flex-wrap items-center gap-2">
              <Text size="small" data-testid={`lastmile-linked-stock-location-${key}`}>
                {linked.name}
              </Text>
              {linked.sales_channels.length ? (
                linked.sales_channels.map((channel) => (
                  <Badge key={channel.id} size="2xsmall" color="blue">
                    {channel.name}
                  </Badge>
                ))
              ) : (
                <Badge size="2xsmall" color="orange">
                  in no sales channel
                </Badge>
              )}
              {linked.matched_by === "external_location_id" ? (
                <Button
                  size="small"
                  variant="transparent"
                  isLoading={unlink.isPending}
                  disabled={busy}
                  onClick={() => unlink.mutate()}
                  data-testid={`lastmile-unlink-${key}`}
                >
                  Unlink
                </Button>
              ) : (
                <Text size="xsmall" className="text-ui-fg-subtle" data-testid={`lastmile-linked-by-id-${key}`}>
                  Linked by its own id: change the externalLocationId at the service to unlink it.
                </Text>
              )}
            </div>
          ) : location.cannot_link ? (
            <Text size="small" className="text-ui-fg-error" data-testid={`lastmile-cannot-link-${key}`}>
              {location.cannot_link}
            </Text>
          ) : (
            <>
              <div className="flex items-center gap-x-2">
                <div className="w-56">
                  <Select
                    size="small"
                    value={chosen}
                    onValueChange={setChosen}
                    open={picking}
                    onOpenChange={setPicking}
                    disabled={busy}
                  >
                    <Select.Trigger
                      aria-label={`Stock location to link to ${shown(location.name ?? key)}`}
                      data-testid={`lastmile-link-select-${key}`}
                    >
                      <Select.Value placeholder="Choose a stock location" />
                    </Select.Trigger>
                    <Select.Content>
                      {options.map((stock) => {
                        const other = mapping.get(stock.id)?.fulfilment_location_id
                        return (
                          <Select.Item
                            key={stock.id}
                            value={stock.id}
                            disabled={!!other}
                            data-testid={`lastmile-link-option-${stock.id}`}
                          >
                            {stock.name}
                            {other ? " (linked to another service location)" : ""}
                          </Select.Item>
                        )
                      })}
                    </Select.Content>
                  </Select>
                </div>
                <Button
                  size="small"
                  variant="secondary"
                  disabled={!chosen || busy}
                  isLoading={link.isPending}
                  onClick={() => chosen && link.mutate(chosen)}
                  data-testid={`lastmile-link-${key}`}
                >
                  Link
                </Button>
                <Text size="small" className="text-ui-fg-subtle">
                  or
                </Text>
                <Button
                  size="small"
                  variant="secondary"
                  disabled={!!location.cannot_create || busy}
                  isLoading={create.isPending}
                  onClick={() => create.mutate()}
                  data-testid={`lastmile-create-${key}`}
                >
                  Create from the service
                </Button>
              </div>
              {location.cannot_create && (
                <Text size="xsmall" className="text-ui-fg-subtle" data-testid={`lastmile-cannot-create-${key}`}>
                  {location.cannot_create}
                </Text>
              )}
            </>
          )}
          {outcome && (
            <Text
              size="xsmall"
              className={outcome.ok ? "text-ui-fg-subtle" : "text-ui-fg-error"}
              data-testid={`lastmile-location-message-${key}`}
              data-ok={outcome.ok}
            >
              {outcome.message}
            </Text>
          )}
        </div>
      </Table.Cell>
      <Table.Cell data-testid={`lastmile-collection-option-${key}`}>
        {location.has_collection_option ? "Yes" : "No"}
      </Table.Cell>
      <Table.Cell>
        <Switch
          aria-label={`Collection at ${shown(location.name ?? id)}`}
          checked={location.collection_enabled}
          disabled={busy}
          onCheckedChange={(enabled) => toggle.mutate(enabled)}
          data-testid={`lastmile-collection-${key}`}
        />
      </Table.Cell>
    </Table.Row>
  )
})
