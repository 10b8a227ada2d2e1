/**
 * The insights page's charts, drawn with Recharts (the chart library Medusa admin extensions use) in the dashboard's
 * tag colours, so they follow its light and dark themes.
 */
import { Container, Heading, Text } from "@medusajs/ui"
import type { ReactElement } from "react"
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts"
import type { InsightsReport } from "../../../lib/contracts/admin-api"
import { shown } from "../../lib/shown-text"
import { reasonWords } from "./insights-period"

const COLOURS = {
  blue: "var(--tag-blue-icon)",
  green: "var(--tag-green-icon)",
  orange: "var(--tag-orange-icon)",
  red: "var(--tag-red-icon)",
  purple: "var(--tag-purple-icon)",
  neutral: "var(--tag-neutral-icon)",
}

const AXIS = { fontSize: 11, fill: "var(--fg-subtle)" }
const TOOLTIP = {
  contentStyle: {
    background: "var(--bg-base)",
    border: "1px solid var(--border-base)",
    borderRadius: 8,
    fontSize: 12,
  },
}

/** A chart's box: its title, what it shows, and the chart or a note when there is nothing to plot yet. */
const ChartCard = ({
  id,
  title,
  hint,
  empty,
  emptyText,
  children,
}: {
  id: string
  title: string
  hint: string
  empty: boolean
  emptyText: string
  children: ReactElement
}) => (
  <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid={`insights-chart-${id}`} data-empty={empty}>
    <div>
      <Heading level="h2">{title}</Heading>
      <Text size="small" className="text-ui-fg-subtle">
        {hint}
      </Text>
    </div>
    {empty ? (
      <Text size="small" className="text-ui-fg-muted py-8 text-center">
        {emptyText}
      </Text>
    ) : (
      <div style={{ width: "100%", height: 260 }}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    )}
  </Container>
)

const weekLabel = (week: string) =>
  new Date(`${week}T00:00:00Z`).toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" })

export const OffersChart = ({ report }: { report: InsightsReport }) => {
  const rows = report.offers.by_option.map((row) => ({
    name: shown(row.name, 40),
    offered: row.offered,
    chosen: row.chosen,
    unavailable: Object.values(row.unavailable).reduce((sum, n) => sum + n, 0),
  }))
  return (
    <ChartCard
      id="offers"
      title="Offered and chosen, per option and store"
      hint={`${report.offers.carts} carts priced, each once a day however often it changed. Offered: carts the option could be chosen by; chosen: orders placed with it.`}
      empty={!rows.some((r) => r.offered || r.chosen || r.unavailable)}
      emptyText="Each delivery option and store appears here once shoppers reach the delivery step."
    >
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 48, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border-base)" />
        <XAxis dataKey="name" tick={AXIS} interval={0} angle={-25} textAnchor="end" height={60} />
        <YAxis tick={AXIS} allowDecimals={false} />
        <Tooltip {...TOOLTIP} />
        <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="offered" name="Offered" fill={COLOURS.blue} isAnimationActive={false} />
        <Bar dataKey="chosen" name="Chosen" fill={COLOURS.green} isAnimationActive={false} />
        <Bar dataKey="unavailable" name="Not offered" fill={COLOURS.neutral} isAnimationActive={false} />
      </BarChart>
    </ChartCard>
  )
}

export const OnTimeChart = ({ report }: { report: InsightsReport }) => {
  const rows = report.weeks.map((w) => ({ ...w, label: weekLabel(w.week) }))
  return (
    <ChartCard
      id="on-time"
      title="On time against the window quoted, by week"
      hint="Deliveries by the week they were delivered: before the window the shopper was shown, inside it, or after it."
      empty={!rows.some((r) => r.early || r.on_time || r.late || r.no_window)}
      emptyText="Deliveries appear here once they are delivered."
    >
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border-base)" />
        <XAxis dataKey="label" tick={AXIS} />
        <YAxis tick={AXIS} allowDecimals={false} />
        <Tooltip {...TOOLTIP} />
        <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="early" name="Early" stackId="w" fill={COLOURS.blue} isAnimationActive={false} />
        <Bar dataKey="on_time" name="On time" stackId="w" fill={COLOURS.green} isAnimationActive={false} />
        <Bar dataKey="late" name="Late" stackId="w" fill={COLOURS.red} isAnimationActive={false} />
        <Bar dataKey="no_window" name="No window" stackId="w" fill={COLOURS.neutral} isAnimationActive={false} />
      </BarChart>
    </ChartCard>
  )
}

export const Co2Chart = ({ report }: { report: InsightsReport }) => {
  const rows = report.weeks.map((w) => ({ label: weekLabel(w.week), kg: w.co2_saved_kg }))
  return (
    <ChartCard
      id="co2"
      title="CO₂ saved, by week"
      hint="The service's CO₂ figure of each rate booked, summed over the parcels delivered or collected that week."
      empty={!rows.some((r) => r.kg > 0)}
      emptyText="CO₂ saved appears here once parcels booked at a rate with a CO₂ figure are delivered."
    >
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border-base)" />
        <XAxis dataKey="label" tick={AXIS} />
        <YAxis tick={AXIS} unit=" kg" />
        <Tooltip {...TOOLTIP} formatter={(value) => [`${value} kg`, "CO₂ saved"]} />
        <Bar dataKey="kg" name="CO₂ saved (kg)" fill={COLOURS.green} isAnimationActive={false} />
      </BarChart>
    </ChartCard>
  )
}

export const LatencyChart = ({ report }: { report: InsightsReport }) => {
  const rows = report.weeks.map((w) => ({
    label: weekLabel(w.week),
    seconds: w.placed_to_booked_p50_ms === null ? null : Math.round(w.placed_to_booked_p50_ms / 100) / 10,
    booked: w.booked,
  }))
  return (
    <ChartCard
      id="latency"
      title="Booking latency, by week"
      hint="The median time from the order placed to the task booked at the service, for the orders placed that week."
      empty={!rows.some((r) => r.seconds !== null)}
      emptyText="Booking latency appears here once orders are booked."
    >
      <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border-base)" />
        <XAxis dataKey="label" tick={AXIS} />
        <YAxis tick={AXIS} unit=" s" />
        <Tooltip {...TOOLTIP} formatter={(value) => [`${value} s`, "Median"]} />
        <Line
          type="monotone"
          dataKey="seconds"
          name="Median (s)"
          stroke={COLOURS.purple}
          strokeWidth={2}
          connectNulls
          isAnimationActive={false}
        />
      </LineChart>
    </ChartCard>
  )
}

export const FailuresChart = ({ report }: { report: InsightsReport }) => {
  const rows = report.booking.failure_reasons.slice(0, 8).map((r) => ({ reason: shown(r.reason, 60), count: r.count }))
  return (
    <ChartCard
      id="failures"
      title="Why bookings failed"
      hint={`${report.booking.failed} booking(s) failed at least once; ${report.booking.needs_attention} wait for you now. Each is counted under its latest reason.`}
      empty={!rows.length}
      emptyText="No booking failed in this period."
    >
      <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="var(--border-base)" />
        <XAxis type="number" tick={AXIS} allowDecimals={false} />
        <YAxis type="category" dataKey="reason" tick={AXIS} width={220} />
        <Tooltip {...TOOLTIP} />
        <Bar dataKey="count" name="Bookings" fill={COLOURS.red} isAnimationActive={false} />
      </BarChart>
    </ChartCard>
  )
}

/** Why options were not offered, per option and store: the question the bars cannot answer. */
export const UnavailableTable = ({ report }: { report: InsightsReport }) => {
  const rows = report.offers.by_option.filter((r) => Object.keys(r.unavailable).length)
  if (!rows.length) {
    return null
  }
  return (
    <Container className="px-6 py-4" data-testid="insights-unavailable">
      <Heading level="h2">Why options were not offered</Heading>
      <ul className="mt-2 flex flex-col gap-y-1">
        {rows.map((row) => (
          <li key={`${row.fulfillment_option}:${row.stock_location_id}`}>
            <Text size="small">
              <span className="font-medium">{shown(row.name, 60)}</span>:{" "}
              {Object.entries(row.unavailable)
                .sort(([, a], [, b]) => b - a)
                .map(([code, n]) => `${reasonWords(code)} (${n})`)
                .join(", ")}
            </Text>
          </li>
        ))}
      </ul>
    </Container>
  )
}
