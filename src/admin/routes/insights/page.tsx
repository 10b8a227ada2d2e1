import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ChartBar } from "@medusajs/icons"
import { Badge, Button, Container, Heading, Input, Label, Select, Switch, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { memo, useDeferredValue, useState } from "react"
import type { InsightsFigures, InsightsReport } from "../../../lib/contracts/admin-api"
import { sdk } from "../../lib/sdk"
import { shown } from "../../lib/shown-text"
import { Co2Chart, FailuresChart, LatencyChart, OffersChart, OnTimeChart, UnavailableTable } from "./insights-charts"
import { PRESETS, type PresetId, change, formatDuration, formatShare, presetPeriod } from "./insights-period"

/** The store select's value for every store (a select item cannot have an empty value). */
const ALL_STORES = "all"

interface Kpi {
  id: string
  label: string
  value: (f: InsightsFigures) => number | null
  show: (value: number | null) => string
}

const percentOf = (part: number, whole: number) => (whole ? part / whole : null)

const KPIS: Kpi[] = [
  {
    id: "on-time",
    label: "Delivered on time",
    value: (f) => percentOf(f.deliveries.on_time, f.deliveries.delivered - f.deliveries.no_window),
    show: formatShare,
  },
  { id: "delivered", label: "Deliveries delivered", value: (f) => f.deliveries.delivered, show: (v) => `${v ?? 0}` },
  {
    id: "collected",
    label: "Collections collected",
    value: (f) => f.collections.collected,
    show: (v) => `${v ?? 0}`,
  },
  { id: "co2", label: "CO₂ saved", value: (f) => f.co2_saved_kg, show: (v) => `${(v ?? 0).toFixed(1)} kg` },
  {
    id: "latency",
    label: "Placed to booked (median)",
    value: (f) => f.booking.placed_to_booked_ms.p50,
    show: formatDuration,
  },
  {
    id: "chosen",
    label: "Chosen per cart",
    value: (f) =>
      percentOf(
        f.offers.by_option.reduce((sum, r) => sum + r.chosen, 0),
        f.offers.carts
      ),
    show: formatShare,
  },
  { id: "webhooks", label: "Status moves by webhook", value: (f) => f.webhook_share, show: formatShare },
]

function nothingYet(report: InsightsReport): boolean {
  const f: InsightsFigures = report
  return (
    !f.offers.carts &&
    !f.offers.by_option.some((r) => r.chosen) &&
    !f.deliveries.booked &&
    !f.deliveries.delivered &&
    !f.collections.booked &&
    !f.collections.collected &&
    !f.booking.failed
  )
}

/** The figures against the period before's (when compared): drawn again only for another report or the switch. */
const Kpis = memo(function Kpis({ report, compare }: { report: InsightsReport; compare: boolean }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="insights-kpis">
      {KPIS.map((kpi) => {
        const now = kpi.value(report)
        const before = kpi.value(report.previous)
        return (
          <Container key={kpi.id} className="px-4 py-3" data-testid={`insights-kpi-${kpi.id}`}>
            <Text size="xsmall" className="text-ui-fg-subtle">
              {kpi.label}
            </Text>
            <Text size="xlarge" weight="plus">
              {kpi.show(now)}
            </Text>
            {compare && (
              <Text size="xsmall" className="text-ui-fg-muted">
                before: {kpi.show(before)} {change(now, before) && `· ${change(now, before)}`}
              </Text>
            )}
          </Container>
        )
      })}
    </div>
  )
})

/** The charts and the counts under them: drawn again only for another report, never for a control's change. */
const Charts = memo(function Charts({ report }: { report: InsightsReport }) {
  return (
    <>
      <OffersChart report={report} />
      <UnavailableTable report={report} />
      <div className="grid grid-cols-1 gap-3 xl:grid-cols-2">
        <OnTimeChart report={report} />
        <Co2Chart report={report} />
        <LatencyChart report={report} />
        <FailuresChart report={report} />
      </div>
      <Container className="px-6 py-3">
        <Text size="xsmall" className="text-ui-fg-muted" data-testid="insights-collections">
          Collections: {report.collections.booked} booked, {report.collections.ready_on_time} ready on time,{" "}
          {report.collections.ready_late} ready late, {report.collections.collected} collected,{" "}
          {report.collections.not_collected} not collected. Deliveries: {report.deliveries.early} early,{" "}
          {report.deliveries.on_time} on time, {report.deliveries.late} late
          {report.deliveries.late_minutes_p50 !== null &&
            ` (median ${report.deliveries.late_minutes_p50} min late)`}, {report.deliveries.no_window} without a window.
          Booking p95: {formatDuration(report.booking.placed_to_booked_ms.p95)}.
        </Text>
      </Container>
    </>
  )
})

/**
 * Delivery insights: what checkout offered and shoppers chose, per option
 * and store; deliveries against the window quoted; CO₂ saved; booking health.
 * A period (with the one before to compare), a store, and the same figures
 * as CSV.
 */
const InsightsPage = () => {
  const [preset, setPreset] = useState<PresetId>("30")
  const [custom, setCustom] = useState(() => presetPeriod("30"))
  const [store, setStore] = useState(ALL_STORES)
  const [compare, setCompare] = useState(true)
  const [timeZone, setTimeZone] = useState<string | undefined>(undefined)
  const period = preset === "custom" ? custom : presetPeriod(preset, timeZone)
  const params = new URLSearchParams({ from: period.from, to: period.to })
  if (store !== ALL_STORES) {
    params.set("stock_location_id", store)
  }
  const { data, error, isLoading } = useQuery({
    queryKey: ["lastmile", "insights", params.toString()],
    queryFn: async () => {
      const report = await sdk.client.fetch<InsightsReport>(`/admin/lastmile/insights?${params.toString()}`)
      setTimeZone(report.period.time_zone)
      return report
    },
    placeholderData: keepPreviousData,
  })
  // The figures follow the latest report after the controls have painted: a period, a store or an answer from the
  // cache never holds up the click or key that asked for it while a year of charts is drawn again.
  const report = useDeferredValue(data)

  return (
    <div className="flex flex-col gap-y-3" data-testid="insights-page">
      <Container className="flex flex-col gap-y-4 px-6 py-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <Heading level="h1">Delivery insights</Heading>
            <Text size="small" className="text-ui-fg-subtle">
              {data
                ? `${data.period.from} to ${data.period.to} (${data.period.time_zone}), against ${data.previous.period.from} to ${data.previous.period.to}`
                : "What checkout offered, what shoppers chose, and how deliveries kept their promise."}
            </Text>
          </div>
          <div className="flex items-center gap-x-2">
            {data && data.demo_tasks > 0 && (
              <Badge color="orange" data-testid="insights-demo-badge">
                Demo data: {data.demo_tasks} orders made up by npm run demo
              </Badge>
            )}
            <Button size="small" variant="secondary" asChild>
              <a href={`/admin/lastmile/insights?${params.toString()}&format=csv`} data-testid="insights-csv">
                Download CSV
              </a>
            </Button>
          </div>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-y-1">
            <Label size="small" id="insights-period-label">
              Period
            </Label>
            <Select value={preset} onValueChange={(value) => setPreset(value as PresetId)}>
              <Select.Trigger className="w-44" aria-labelledby="insights-period-label" data-testid="insights-period">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                {PRESETS.map((p) => (
                  <Select.Item key={p.id} value={p.id}>
                    {p.label}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          </div>
          {preset === "custom" && (
            <>
              <div className="flex flex-col gap-y-1">
                <Label size="small" htmlFor="insights-from">
                  From
                </Label>
                <Input
                  id="insights-from"
                  type="date"
                  size="small"
                  value={custom.from}
                  max={custom.to}
                  onChange={(e) => e.target.value && setCustom((c) => ({ ...c, from: e.target.value }))}
                />
              </div>
              <div className="flex flex-col gap-y-1">
                <Label size="small" htmlFor="insights-to">
                  To
                </Label>
                <Input
                  id="insights-to"
                  type="date"
                  size="small"
                  value={custom.to}
                  min={custom.from}
                  onChange={(e) => e.target.value && setCustom((c) => ({ ...c, to: e.target.value }))}
                />
              </div>
            </>
          )}
          <div className="flex flex-col gap-y-1">
            <Label size="small" id="insights-store-label">
              Store
            </Label>
            <Select value={store} onValueChange={setStore}>
              <Select.Trigger
                className="w-56"
                aria-labelledby="insights-store-label"
                data-testid="insights-store-filter"
              >
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value={ALL_STORES}>All stores</Select.Item>
                {(data?.stores ?? []).map((s) => (
                  <Select.Item key={s.id} value={s.id}>
                    {shown(s.name, 60)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          </div>
          <div className="flex items-center gap-x-2 pb-1">
            <Switch id="insights-compare" checked={compare} onCheckedChange={setCompare} />
            <Label size="small" htmlFor="insights-compare">
              Compare with the period before
            </Label>
          </div>
        </div>
      </Container>

      {error ? (
        <Container>
          <Text className="text-ui-fg-error" data-testid="insights-error">
            {error.message}
          </Text>
        </Container>
      ) : isLoading || !report ? (
        <Container>
          <Text>Loading…</Text>
        </Container>
      ) : (
        <>
          {nothingYet(report) && (
            <Container className="px-6 py-4" data-testid="insights-empty">
              <Heading level="h2">Nothing to show for this period yet</Heading>
              <Text size="small" className="text-ui-fg-subtle">
                As shoppers reach the delivery step, this page counts how often each delivery option and store was
                offered, why some were not (no stock, address not served, details missing), and which were chosen.
                Booked orders then show whether they arrived before, inside or after the window the shopper was
                promised, the CO₂ the service reports saved, how long booking took and why any failed.
              </Text>
            </Container>
          )}
          <Kpis report={report} compare={compare} />
          <Charts report={report} />
        </>
      )}
    </div>
  )
}

export const config = defineRouteConfig({
  label: "Delivery insights",
  icon: ChartBar,
})

export default InsightsPage
