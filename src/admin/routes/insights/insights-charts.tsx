/**
 * The insights page's charts, drawn with Recharts in the dashboard's tag colours (light and dark themes), each with its
 * figures as a table: the chart's text equivalent for a screen reader, and for anyone who wants the numbers.
 */
import { Container, Heading, Text } from "@medusajs/ui"
import { type ComponentType, Fragment, type ReactElement, memo, useMemo, useState } from "react"
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
import { useInTurn } from "./in-turn"
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

/** A chart's height, drawn or empty: the same box either way, so nothing moves when a chart fills or empties. */
const CHART_HEIGHT = 260

/** A chart's figures as a table: its columns, and one row per bar or point (the first cell names it). */
interface Figures {
  columns: string[]
  rows: (string | number | null)[][]
}

/**
 * A chart's box: its title, what it shows, and the chart or a note when there is nothing to plot yet. The drawing is
 * an image to a screen reader, named after the chart and pointing to its table, which follows it (folded away, one
 * key to open).
 */
const ChartCard = ({
  id,
  title,
  hint,
  empty,
  emptyText,
  figures,
  drawn,
  children,
}: {
  id: string
  title: string
  hint: string
  empty: boolean
  emptyText: string
  figures: Figures
  /** False until the chart's first turn (in-turn.ts): its box is kept, the drawing comes after the next paint. */
  drawn: boolean
  children: ReactElement
}) => (
  <Container className="flex flex-col gap-y-3 px-6 py-4" data-testid={`insights-chart-${id}`} data-empty={empty}>
    <div>
      <Heading level="h2" id={`insights-chart-${id}-title`}>
        {title}
      </Heading>
      <Text size="small" className="text-ui-fg-subtle">
        {hint}
      </Text>
    </div>
    {/* Keyed apart: the note's box is never made the drawing's (a box that moves), each is made anew in its place. */}
    {empty ? (
      <Fragment key="empty">
        <div className="flex items-center justify-center" style={{ height: CHART_HEIGHT }}>
          <Text size="small" className="text-ui-fg-muted text-center">
            {emptyText}
          </Text>
        </div>
        {/* The table's summary line, kept: a chart emptied by a filter leaves the page below it where it was. */}
        <div aria-hidden="true" className="txt-compact-small-plus invisible py-1">
          The figures as a table
        </div>
      </Fragment>
    ) : (
      <Fragment key="chart">
        <div
          role="img"
          aria-label={`${title}: a chart of ${figures.rows.length} ${figures.rows.length === 1 ? "row" : "rows"}; its figures are in the table that follows.`}
          style={{ width: "100%", height: CHART_HEIGHT }}
        >
          {drawn && (
            <ResponsiveContainer width="100%" height="100%">
              {children}
            </ResponsiveContainer>
          )}
        </div>
        <FiguresTable id={id} title={title} figures={figures} />
      </Fragment>
    )}
  </Container>
)

/**
 * The chart's figures, behind a summary a keyboard opens with Enter. The table is made only while it is open (a year's
 * weeks in five folded tables would be made again for every report, for nothing): from the summary's click, which
 * comes before the details opens, so the table is there as it opens; `toggle` follows the details however it opened
 * or closed.
 */
const FiguresTable = ({ id, title, figures }: { id: string; title: string; figures: Figures }) => {
  const [open, setOpen] = useState(false)
  return (
    <details data-testid={`insights-table-${id}`} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="txt-compact-small-plus text-ui-fg-subtle cursor-pointer py-1" onClick={() => setOpen(true)}>
        The figures as a table
      </summary>
      {open && <TableOfFigures title={title} figures={figures} />}
    </details>
  )
}

const TableOfFigures = ({ title, figures }: { title: string; figures: Figures }) => (
  <table className="txt-compact-small mt-2 w-full border-collapse">
    <caption className="sr-only">{title}</caption>
    <thead>
      <tr>
        {figures.columns.map((column, index) => (
          <th
            key={column}
            scope="col"
            className={`border-ui-border-base border-b py-1 font-medium ${index ? "text-right" : "text-left"}`}
          >
            {column}
          </th>
        ))}
      </tr>
    </thead>
    <tbody>
      {figures.rows.map((row, r) => (
        <tr key={r}>
          {row.map((cell, index) =>
            index === 0 ? (
              <th key={index} scope="row" className="border-ui-border-base border-b py-1 text-left font-normal">
                {cell}
              </th>
            ) : (
              <td key={index} className="border-ui-border-base border-b py-1 text-right">
                {cell ?? "–"}
              </td>
            )
          )}
        </tr>
      ))}
    </tbody>
  </table>
)

/** One formatter for every label (`toLocaleDateString` makes one a call: a year's weeks, three charts). */
const WEEK_FORMAT = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" })

const weekLabel = (week: string) => WEEK_FORMAT.format(new Date(`${week}T00:00:00Z`))

interface CardProps {
  report: InsightsReport
  drawn: boolean
}

/**
 * A chart drawn again only for another report (memo), and then in its turn (in-turn.ts), one chart after another with
 * a paint between; its rows and figures are made once per report. A change of the page's controls (comparing, a
 * period being typed) redraws no chart.
 */
function drawnInTurn(Card: ComponentType<CardProps>, name: string) {
  const Chart = ({ report }: { report: InsightsReport }) => {
    const { shown, drawn } = useInTurn(report)
    return <Card report={shown} drawn={drawn} />
  }
  Chart.displayName = name
  return memo(Chart)
}

const OffersCard = memo(function OffersCard({ report, drawn }: CardProps) {
  const { rows, figures } = useMemo(() => {
    const rows = report.offers.by_option.map((row) => ({
      name: shown(row.name, 40),
      offered: row.offered,
      chosen: row.chosen,
      unavailable: Object.values(row.unavailable).reduce((sum, n) => sum + n, 0),
    }))
    const figures: Figures = {
      columns: ["Option or store", "Offered", "Chosen", "Not offered"],
      rows: rows.map((r) => [r.name, r.offered, r.chosen, r.unavailable]),
    }
    return { rows, figures }
  }, [report])
  return (
    <ChartCard
      id="offers"
      title="Offered and chosen, per option and store"
      hint={`${report.offers.carts} carts priced, each once a day however often it changed. Offered: carts the option could be chosen by; chosen: orders placed with it.`}
      empty={!rows.some((r) => r.offered || r.chosen || r.unavailable)}
      emptyText="Each delivery option and store appears here once shoppers reach the delivery step."
      figures={figures}
      drawn={drawn}
    >
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 48, left: 0 }} accessibilityLayer={false}>
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
})

const OnTimeCard = memo(function OnTimeCard({ report, drawn }: CardProps) {
  const { rows, figures } = useMemo(() => {
    const rows = report.weeks.map((w) => ({ ...w, label: weekLabel(w.week) }))
    const figures: Figures = {
      columns: ["Week of", "Early", "On time", "Late", "No window"],
      rows: rows.map((r) => [r.label, r.early, r.on_time, r.late, r.no_window]),
    }
    return { rows, figures }
  }, [report])
  return (
    <ChartCard
      id="on-time"
      title="On time against the window quoted, by week"
      hint="Deliveries by the week they were delivered: before the window the shopper was shown, inside it, or after it."
      empty={!rows.some((r) => r.early || r.on_time || r.late || r.no_window)}
      emptyText="Deliveries appear here once they are delivered."
      figures={figures}
      drawn={drawn}
    >
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
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
})

const Co2Card = memo(function Co2Card({ report, drawn }: CardProps) {
  const { rows, figures } = useMemo(() => {
    const rows = report.weeks.map((w) => ({ label: weekLabel(w.week), kg: w.co2_saved_kg }))
    const figures: Figures = { columns: ["Week of", "CO₂ saved (kg)"], rows: rows.map((r) => [r.label, r.kg]) }
    return { rows, figures }
  }, [report])
  return (
    <ChartCard
      id="co2"
      title="CO₂ saved, by week"
      hint="The service's CO₂ figure of each rate booked, summed over the parcels delivered or collected that week."
      empty={!rows.some((r) => r.kg > 0)}
      emptyText="CO₂ saved appears here once parcels booked at a rate with a CO₂ figure are delivered."
      figures={figures}
      drawn={drawn}
    >
      <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--border-base)" />
        <XAxis dataKey="label" tick={AXIS} />
        <YAxis tick={AXIS} unit=" kg" />
        <Tooltip {...TOOLTIP} formatter={(value) => [`${value} kg`, "CO₂ saved"]} />
        <Bar dataKey="kg" name="CO₂ saved (kg)" fill={COLOURS.green} isAnimationActive={false} />
      </BarChart>
    </ChartCard>
  )
})

const LatencyCard = memo(function LatencyCard({ report, drawn }: CardProps) {
  const { rows, figures } = useMemo(() => {
    const rows = report.weeks.map((w) => ({
      label: weekLabel(w.week),
      seconds: w.placed_to_booked_p50_ms === null ? null : Math.round(w.placed_to_booked_p50_ms / 100) / 10,
      booked: w.booked,
    }))
    const figures: Figures = {
      columns: ["Week of", "Median (s)", "Booked"],
      rows: rows.map((r) => [r.label, r.seconds, r.booked]),
    }
    return { rows, figures }
  }, [report])
  return (
    <ChartCard
      id="latency"
      title="Booking latency, by week"
      hint="The median time from the order placed to the task booked at the service, for the orders placed that week."
      empty={!rows.some((r) => r.seconds !== null)}
      emptyText="Booking latency appears here once orders are booked."
      figures={figures}
      drawn={drawn}
    >
      <LineChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
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
})

const FailuresCard = memo(function FailuresCard({ report, drawn }: CardProps) {
  const { rows, figures } = useMemo(() => {
    const rows = report.booking.failure_reasons
      .slice(0, 8)
      .map((r) => ({ reason: shown(r.reason, 60), count: r.count }))
    const figures: Figures = { columns: ["Reason", "Bookings"], rows: rows.map((r) => [r.reason, r.count]) }
    return { rows, figures }
  }, [report])
  return (
    <ChartCard
      id="failures"
      title="Why bookings failed"
      hint={`${report.booking.failed} booking(s) failed at least once; ${report.booking.needs_attention} wait for you now. Each is counted under its latest reason.`}
      empty={!rows.length}
      emptyText="No booking failed in this period."
      figures={figures}
      drawn={drawn}
    >
      <BarChart
        data={rows}
        layout="vertical"
        margin={{ top: 8, right: 16, bottom: 0, left: 8 }}
        accessibilityLayer={false}
      >
        <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="var(--border-base)" />
        <XAxis type="number" tick={AXIS} allowDecimals={false} />
        <YAxis type="category" dataKey="reason" tick={AXIS} width={220} />
        <Tooltip {...TOOLTIP} />
        <Bar dataKey="count" name="Bookings" fill={COLOURS.red} isAnimationActive={false} />
      </BarChart>
    </ChartCard>
  )
})

export const OffersChart = drawnInTurn(OffersCard, "OffersChart")
export const OnTimeChart = drawnInTurn(OnTimeCard, "OnTimeChart")
export const Co2Chart = drawnInTurn(Co2Card, "Co2Chart")
export const LatencyChart = drawnInTurn(LatencyCard, "LatencyChart")
export const FailuresChart = drawnInTurn(FailuresCard, "FailuresChart")

/** Why options were not offered, per option and store: the question the bars cannot answer. */
export const UnavailableTable = memo(function UnavailableTable({ report }: { report: InsightsReport }) {
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
})
