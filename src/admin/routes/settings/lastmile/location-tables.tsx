/** Settings → Lastmile's two location tables, the service's and Medusa's, each searched and paged in the browser. */
import { Badge, Container, Heading, Table, Text } from "@medusajs/ui"
import { memo, useCallback, useMemo } from "react"
import type { LocationView, StockLocationSummary } from "../../../lib/sdk"
import { WRAP_ANYWHERE, shown } from "../../../lib/shown-text"
import { LocationRow } from "./location-row"
import { Pager, SearchBox, searchText, useSearchPaging } from "./table-paging"

const serviceLocationText = (location: LocationView) =>
  searchText(
    location.name,
    location.external_location_id,
    location.fulfilment_location_id,
    location.address,
    location.stock_location?.name
  )

/** No row matches: say what was searched for. */
function NoMatch({ columns, query }: { columns: number; query: string }) {
  return (
    <Table.Row>
      {/* The dashboard's cell has no colSpan: the native one, styled as its cells are. */}
      <td colSpan={columns} className="h-12 py-0 pr-6">
        <Text size="small" className="text-ui-fg-subtle py-2">
          {query ? `No location matches “${shown(query, 100)}”.` : "No locations."}
        </Text>
      </td>
    </Table.Row>
  )
}

/** The service's locations, each linked (or to link, or to create) and its collection switch: a page of rows. */
export function ServiceLocationsSection({
  locations,
  stockLocations,
  mapping,
}: {
  locations: LocationView[]
  stockLocations: { id: string; name: string }[]
  mapping: Map<string, StockLocationSummary>
}) {
  const paging = useSearchPaging(locations, serviceLocationText)
  return (
    <Container className="p-0">
      <div className="flex flex-wrap items-end justify-between gap-2 px-6 py-4">
        <div>
          <Heading level="h2">Locations at the service</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Link each to the Medusa stock location it is, or create one from the service&apos;s name and address.
          </Text>
        </div>
        <SearchBox
          label="Search the service's locations"
          placeholder="Name, external id or address"
          onSearch={paging.search}
          testId="lastmile-location-search"
          controls="lastmile-locations-table"
        />
      </div>
      <Table
        data-testid="lastmile-locations"
        id="lastmile-locations-table"
        data-query={paging.query}
        aria-busy={paging.pending}
        className={paging.pending ? "opacity-60" : undefined}
      >
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Location</Table.HeaderCell>
            <Table.HeaderCell>Medusa stock location</Table.HeaderCell>
            <Table.HeaderCell>Click & collect option</Table.HeaderCell>
            <Table.HeaderCell>Collection enabled</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {paging.rows.map((location) => (
            <LocationRow
              key={location.fulfilment_location_id}
              location={location}
              stockLocations={stockLocations}
              mapping={mapping}
            />
          ))}
          {!paging.rows.length && <NoMatch columns={4} query={paging.query} />}
        </Table.Body>
      </Table>
      <Pager {...paging} testIdPrefix="lastmile-location" label="the service's locations" />
    </Container>
  )
}

/** Medusa's stock locations with the service location and sales channels each is in: a page of rows. */
export function StockLocationsSection({
  stockLocations,
  serviceLocations,
}: {
  stockLocations: StockLocationSummary[]
  serviceLocations: Map<string, LocationView>
}) {
  const textOf = useCallback(
    (location: StockLocationSummary) => {
      const linked = location.fulfilment_location_id ? serviceLocations.get(location.fulfilment_location_id) : undefined
      return searchText(
        location.name,
        location.id,
        location.external_location_id,
        linked?.name,
        linked?.external_location_id,
        linked?.address
      )
    },
    [serviceLocations]
  )
  const paging = useSearchPaging(stockLocations, textOf)
  return (
    <Container className="p-0">
      <div className="flex flex-wrap items-end justify-between gap-2 px-6 py-4">
        <div>
          <Heading level="h2">Medusa stock locations</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            A cart can ship from, or be collected at, a location only in its sales channel.
          </Text>
        </div>
        <SearchBox
          label="Search Medusa's stock locations"
          placeholder="Name, external id or address"
          onSearch={paging.search}
          testId="lastmile-stock-locations-search"
          controls="lastmile-stock-locations-table"
        />
      </div>
      <Table
        data-testid="lastmile-stock-locations"
        id="lastmile-stock-locations-table"
        data-query={paging.query}
        aria-busy={paging.pending}
        className={paging.pending ? "opacity-60" : undefined}
      >
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Stock location</Table.HeaderCell>
            <Table.HeaderCell>Service location</Table.HeaderCell>
            <Table.HeaderCell>Sales channels</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {paging.rows.map((location) => (
            <StockLocationRow
              key={location.id}
              location={location}
              serviceName={
                location.fulfilment_location_id
                  ? (serviceLocations.get(location.fulfilment_location_id)?.name ?? location.fulfilment_location_id)
                  : null
              }
            />
          ))}
          {!paging.rows.length && <NoMatch columns={3} query={paging.query} />}
        </Table.Body>
      </Table>
      <Pager {...paging} testIdPrefix="lastmile-stock-locations" label="Medusa's stock locations" />
    </Container>
  )
}

const StockLocationRow = memo(function StockLocationRow({
  location,
  serviceName,
}: {
  location: StockLocationSummary
  /** The linked service location's name (else its id), or null when not linked. */
  serviceName: string | null
}) {
  return (
    <Table.Row data-testid={`lastmile-stock-location-${location.id}`}>
      <Table.Cell style={WRAP_ANYWHERE}>{shown(location.name)}</Table.Cell>
      <Table.Cell data-testid={`lastmile-stock-location-service-${location.id}`}>
        {serviceName !== null ? (
          shown(serviceName)
        ) : (
          <Badge size="2xsmall" color="grey">
            not linked
          </Badge>
        )}
      </Table.Cell>
      <Table.Cell data-testid={`lastmile-stock-location-channels-${location.id}`}>
        <div className="flex flex-wrap gap-1">
          {location.sales_channels.length ? (
            location.sales_channels.map((channel) => (
              <Badge key={channel.id} size="2xsmall" color="blue">
                {channel.name}
              </Badge>
            ))
          ) : (
            <Badge size="2xsmall" color="orange">
              none
            </Badge>
          )}
        </div>
      </Table.Cell>
    </Table.Row>
  )
})

/** The overview's lists as the tables read them, derived once per overview. */
export function useLocationLists(
  data: {
    locations: LocationView[]
    stock_locations: StockLocationSummary[]
  } | null
) {
  return useMemo(
    () => ({
      stockLocations: (data?.stock_locations ?? []).map(({ id, name }) => ({ id, name })),
      mapping: new Map((data?.stock_locations ?? []).map((s) => [s.id, s])),
      serviceLocations: new Map((data?.locations ?? []).map((l) => [l.fulfilment_location_id, l])),
    }),
    [data]
  )
}
