import { addDays, dayOf, isDay, startOfDay, weekOf } from "../calendar"
import { resolvePeriod } from "../period"
import { type OfferCountRow, buildInsightsReport, percentile, previousPeriod } from "../report"
import { type InsightTaskRow, punctuality } from "../task-facts"
import { csvCell, insightsCsv } from "../report-csv"

const TZ = "Europe/London"
const NOW = new Date("2026-11-30T12:00:00Z")
const PERIOD = { from: "2026-11-01", to: "2026-11-30" }

const at = (iso: string) => new Date(iso).toISOString()
const entry = (value: string, when: string, extra: Record<string, string> = {}) => ({ value, at: at(when), ...extra })

/** A booked delivery placed and booked on `day`, promised 10:00 to 14:00 the next day, moved by `history`. */
function delivery(
  id: string,
  day: string,
  history: ReturnType<typeof entry>[],
  overrides: Partial<InsightTaskRow> = {}
) {
  const next = addDays(day, 1)
  return {
    id,
    kind: "delivery",
    mode: "delivery",
    status: "booked",
    rate_code: "NEXT_DAY",
    stock_location_id: "sloc_warehouse",
    placed_at: `${day}T09:00:00.000Z`,
    created_at: `${day}T09:00:00.500Z`,
    booked_at: `${day}T09:00:01.200Z`,
    quoted_rate: {
      rate_code: "NEXT_DAY",
      name: "Next day",
      amount: 4.95,
      currency_code: "GBP",
      window: { from: `${next}T10:00:00.000Z`, to: `${next}T14:00:00.000Z` },
      co2_savings: 0.5,
      quoted_at: `${day}T09:00:00.900Z`,
    },
    status_history: { entries: [entry("NOT_STARTED", `${day}T09:00:01.200Z`), ...history] },
    last_error: null,
    ...overrides,
  } satisfies InsightTaskRow
}

const delivered = (when: string, source = "webhook") => entry("DELIVERED", when, { source, phase: "delivered" })

describe("calendar", () => {
  it("puts an instant on its day in the store's time zone, across daylight saving", () => {
    // 00:30 in London on 1 July is still 30 June in UTC.
    expect(dayOf(new Date("2026-06-30T23:30:00Z"), TZ)).toBe("2026-07-01")
    expect(dayOf(new Date("2026-06-30T23:30:00Z"), "UTC")).toBe("2026-06-30")
    expect(startOfDay("2026-07-01", TZ).toISOString()).toBe("2026-06-30T23:00:00.000Z")
    expect(startOfDay("2026-12-01", TZ).toISOString()).toBe("2026-12-01T00:00:00.000Z")
    expect(startOfDay("2026-03-29", TZ).toISOString()).toBe("2026-03-29T00:00:00.000Z")
    expect(startOfDay("2026-03-30", TZ).toISOString()).toBe("2026-03-29T23:00:00.000Z")
    expect(startOfDay("2026-11-02", "America/New_York").toISOString()).toBe("2026-11-02T05:00:00.000Z")
  })

  it("names weeks by their Monday and knows real days", () => {
    expect(weekOf("2026-11-30")).toBe("2026-11-30")
    expect(weekOf("2026-11-29")).toBe("2026-11-23")
    expect(weekOf("2026-11-01")).toBe("2026-10-26")
    expect(isDay("2026-02-29")).toBe(false)
    expect(isDay("2028-02-29")).toBe(true)
    expect(isDay("2026-1-01")).toBe(false)
  })
})

describe("resolvePeriod", () => {
  it("defaults to the last 30 days, today included, and the period before is as long", () => {
    expect(resolvePeriod({}, TZ, NOW)).toEqual({ ok: true, from: "2026-11-01", to: "2026-11-30" })
    expect(previousPeriod({ from: "2026-11-01", to: "2026-11-30" })).toEqual({ from: "2026-10-02", to: "2026-10-31" })
    expect(resolvePeriod({ to: "2026-10-31" }, TZ, NOW)).toEqual({ ok: true, from: "2026-10-02", to: "2026-10-31" })
    expect(resolvePeriod({ from: "2026-11-20" }, TZ, NOW)).toEqual({ ok: true, from: "2026-11-20", to: "2026-11-30" })
  })

  it("reads a date-time as its day in the store's time zone", () => {
    expect(resolvePeriod({ from: "2026-06-30T23:30:00Z", to: "2026-07-02" }, TZ, NOW)).toEqual({
      ok: true,
      from: "2026-07-01",
      to: "2026-07-02",
    })
  })

  it("refuses what is not a day, a reversed period and one longer than a year, in words", () => {
    expect(resolvePeriod({ from: "yesterday" }, TZ, NOW)).toEqual({
      ok: false,
      problem: "from must be an ISO date (2026-11-01) or date-time (2026-11-01T00:00:00Z)",
    })
    expect(resolvePeriod({ from: "2026-02-30" }, TZ, NOW).ok).toBe(false)
    expect(resolvePeriod({ from: "2026-11-10", to: "2026-11-01" }, TZ, NOW)).toEqual({
      ok: false,
      problem: "from (2026-11-10) must not be after to (2026-11-01)",
    })
    expect(resolvePeriod({ from: "2024-01-01", to: "2026-01-01" }, TZ, NOW)).toEqual({
      ok: false,
      problem: "the period may be at most 366 days long",
    })
  })

  it("refuses days outside the years 2000 to 2999, before any arithmetic on them", () => {
    const outside = (name: string) => ({ ok: false, problem: `${name} must be a date in the years 2000 to 2999` })
    expect(resolvePeriod({ to: "9999-12-31" }, TZ, NOW)).toEqual(outside("to"))
    expect(resolvePeriod({ from: "9999-12-31T23:59:59-12:00" }, TZ, NOW)).toEqual(outside("from"))
    expect(resolvePeriod({ from: "0150-01-01", to: "0150-01-31" }, TZ, NOW)).toEqual({
      ok: false,
      problem: "from must be a date in the years 2000 to 2999; to must be a date in the years 2000 to 2999",
    })
    expect(resolvePeriod({ from: "1999-12-31" }, TZ, NOW)).toEqual(outside("from"))
    expect(resolvePeriod({ to: "3000-01-01" }, TZ, NOW)).toEqual(outside("to"))
    // A date-time whose day in the store's zone falls outside.
    expect(resolvePeriod({ to: "2999-12-31T23:30:00-05:00" }, TZ, NOW)).toEqual(outside("to"))
    expect(resolvePeriod({ from: "2000-01-01", to: "2000-01-31" }, TZ, NOW)).toEqual({
      ok: true,
      from: "2000-01-01",
      to: "2000-01-31",
    })
    expect(resolvePeriod({ from: "2999-12-01", to: "2999-12-31" }, TZ, NOW).ok).toBe(true)
  })
})

describe("punctuality", () => {
  const window = { from: 1000, to: 2000 }
  it("is on time between the window's start and end, both included; early before; late after", () => {
    expect(punctuality(999, window)).toBe("early")
    expect(punctuality(1000, window)).toBe("on_time")
    expect(punctuality(2000, window)).toBe("on_time")
    expect(punctuality(2001, window)).toBe("late")
    expect(punctuality(2001, null)).toBe("no_window")
  })
})

describe("buildInsightsReport", () => {
  const options = [
    {
      id: "so_next",
      name: "Next day delivery",
      fulfillment_option: "lastmile-next-day",
      stock_location_id: "sloc_warehouse",
      stock_location_name: "Warehouse",
    },
    {
      id: "so_soho",
      name: "Collect from Soho",
      fulfillment_option: "lastmile-collection",
      stock_location_id: "sloc_soho",
      stock_location_name: "Soho",
    },
    {
      id: "so_bank",
      name: "Collect from Bank",
      fulfillment_option: "lastmile-collection",
      stock_location_id: "sloc_bank",
      stock_location_name: "Bank",
    },
  ]
  const count = (row: Partial<OfferCountRow> & Pick<OfferCountRow, "day" | "kind" | "count">): OfferCountRow => ({
    fulfillment_option: "",
    stock_location_id: "",
    reason: "",
    ...row,
  })

  const tasks: InsightTaskRow[] = [
    // Early, on time (twice, one on the window's very end), late by 90 minutes, no window.
    delivery("early", "2026-11-10", [delivered("2026-11-11T09:59:59Z")]),
    delivery("on-time", "2026-11-10", [
      entry("IN_TRANSIT", "2026-11-11T08:00:00Z", { source: "poll", phase: "shipped" }),
      delivered("2026-11-11T12:00:00Z"),
    ]),
    delivery("on-the-end", "2026-11-17", [delivered("2026-11-18T14:00:00Z", "poll")]),
    delivery("late", "2026-11-17", [delivered("2026-11-18T15:30:00Z")]),
    delivery("late-2", "2026-11-17", [delivered("2026-11-18T14:30:00Z")], {
      quoted_rate: { window: { from: "2026-11-18T10:00:00Z", to: "2026-11-18T14:00:00Z" }, co2_savings: null },
    }),
    delivery("windowless", "2026-11-20", [delivered("2026-11-21T09:00:00Z")], { quoted_rate: null }),
    // Placed in October, delivered in November: November's delivery, October's booking.
    delivery("october", "2026-10-30", [delivered("2026-11-01T10:30:00Z")], {
      quoted_rate: { window: { from: "2026-11-01T10:00:00Z", to: "2026-11-01T14:00:00Z" }, co2_savings: 0.5 },
    }),
    // A booking that failed twice and went through; one waiting for the merchant; one retrying.
    delivery("recovered", "2026-11-12", [], {
      booked_at: "2026-11-12T09:05:00.000Z",
      status_history: {
        entries: [
          entry("failed", "2026-11-12T09:00:02Z", { detail: "the service failed (503)" }),
          entry("failed", "2026-11-12T09:01:00Z", { detail: "the service failed (503)" }),
          entry("NOT_STARTED", "2026-11-12T09:05:00Z"),
        ],
      },
    }),
    delivery("stuck", "2026-11-12", [], {
      status: "needs_attention",
      booked_at: null,
      last_error: "The rate NEXT_DAY is no longer offered.",
      status_history: {
        entries: [
          entry("needs_attention", "2026-11-12T09:00:02Z", { detail: "The rate NEXT_DAY is no longer offered." }),
        ],
      },
    }),
    delivery("retrying", "2026-11-13", [], {
      status: "failed",
      booked_at: null,
      status_history: { entries: [entry("failed", "2026-11-13T09:00:02Z", { detail: "the service failed (503)" })] },
    }),
    // Collections: ready on time then collected; ready late, never collected; collected with no ready status.
    {
      ...delivery("collected", "2026-11-14", [
        entry("READY_FOR_COLLECTION", "2026-11-14T13:00:00Z", { source: "webhook", phase: "shipped" }),
        entry("COLLECTED_BY_CUSTOMER", "2026-11-15T10:00:00Z", { source: "webhook", phase: "delivered" }),
      ]),
      mode: "collection",
      rate_code: "SVC_COL",
      stock_location_id: "sloc_soho",
      quoted_rate: { window: { from: "2026-11-14T13:00:00Z", to: "2026-11-14T18:00:00Z" }, co2_savings: null },
    },
    {
      ...delivery("uncollected", "2026-11-14", [
        entry("READY_FOR_COLLECTION", "2026-11-14T19:00:00Z", { source: "poll", phase: "shipped" }),
      ]),
      mode: "collection",
      rate_code: "SVC_COL",
      stock_location_id: "sloc_soho",
      quoted_rate: { window: { from: "2026-11-14T13:00:00Z", to: "2026-11-14T18:00:00Z" }, co2_savings: null },
    },
    {
      ...delivery("no-ready-status", "2026-11-20", [delivered("2026-11-20T15:00:00Z")]),
      mode: null,
      rate_code: "SVC_COL",
      stock_location_id: "sloc_bank",
      quoted_rate: { window: { from: "2026-11-20T13:00:00Z", to: "2026-11-20T18:00:00Z" }, co2_savings: null },
    },
    // A return is not an order's delivery.
    { ...delivery("return", "2026-11-15", [delivered("2026-11-16T10:00:00Z")]), kind: "return", mode: "return" },
    // Demo history, labelled.
    delivery("demo", "2026-11-05", [
      entry("aged", "2026-11-30T10:00:00Z", { source: "demo" }),
      delivered("2026-11-06T11:00:00Z"),
    ]),
  ]
  const counts: OfferCountRow[] = [
    count({ day: "2026-11-10", kind: "cart", count: 7 }),
    count({ day: "2026-10-10", kind: "cart", count: 4 }),
    count({
      day: "2026-11-10",
      kind: "offered",
      fulfillment_option: "lastmile-next-day",
      stock_location_id: "sloc_warehouse",
      count: 6,
    }),
    count({
      day: "2026-11-10",
      kind: "unavailable",
      fulfillment_option: "lastmile-next-day",
      stock_location_id: "sloc_warehouse",
      reason: "input_incomplete",
      count: 1,
    }),
    count({
      day: "2026-11-11",
      kind: "chosen",
      fulfillment_option: "lastmile-next-day",
      stock_location_id: "sloc_warehouse",
      count: 5,
    }),
    count({
      day: "2026-11-10",
      kind: "offered",
      fulfillment_option: "lastmile-collection",
      stock_location_id: "sloc_soho",
      count: 4,
    }),
    count({
      day: "2026-11-10",
      kind: "unavailable",
      fulfillment_option: "lastmile-collection",
      stock_location_id: "sloc_soho",
      reason: "rate_missing",
      count: 3,
    }),
    count({
      day: "2026-11-12",
      kind: "chosen",
      fulfillment_option: "lastmile-collection",
      stock_location_id: "sloc_soho",
      count: 2,
    }),
    count({
      day: "2026-10-10",
      kind: "offered",
      fulfillment_option: "lastmile-collection",
      stock_location_id: "sloc_soho",
      count: 2,
    }),
    // An option deleted since.
    count({
      day: "2026-11-10",
      kind: "offered",
      fulfillment_option: "lastmile-same-day",
      stock_location_id: "sloc_warehouse",
      count: 1,
    }),
  ]
  const report = buildInsightsReport({
    period: PERIOD,
    timeZone: TZ,
    tasks,
    counts,
    options,
    stores: [{ id: "sloc_soho", name: "Soho" }],
    stockLocationId: null,
    co2Unit: "kg",
    now: NOW,
  })

  it("splits deliveries against the window quoted, and takes the median lateness", () => {
    expect(report.deliveries).toEqual({
      booked: 8,
      delivered: 8,
      early: 1,
      on_time: 4,
      late: 2,
      no_window: 1,
      late_minutes_p50: 30,
    })
  })

  it("counts collections made ready on time or late, collected, and not collected", () => {
    expect(report.collections).toEqual({
      booked: 3,
      ready_on_time: 2,
      ready_late: 1,
      no_window: 0,
      collected: 2,
      not_collected: 1,
    })
  })

  it("sums the CO₂ figure of what was delivered in the period, in kg, or from grams", () => {
    // Six deliveries with 0.5 each (late-2 has no figure, windowless none): early, on-time, on-the-end, late, october, demo.
    expect(report.co2_saved_kg).toBe(3)
    const grams = buildInsightsReport({
      period: PERIOD,
      timeZone: TZ,
      tasks: [delivery("g", "2026-11-10", [delivered("2026-11-11T11:00:00Z")], { quoted_rate: { co2_savings: 420 } })],
      counts: [],
      options: [],
      stores: [],
      stockLocationId: null,
      co2Unit: "g",
      now: NOW,
    })
    expect(grams.co2_saved_kg).toBe(0.42)
  })

  it("measures booking from placed to booked, and counts failed bookings by their latest reason", () => {
    expect(report.booking.placed_to_booked_ms).toEqual({ p50: 1200, p95: 300_000 })
    expect(report.booking.failed).toBe(3)
    expect(report.booking.needs_attention).toBe(1)
    expect(report.booking.failure_reasons).toEqual([
      { reason: "the service failed (503)", count: 2 },
      { reason: "The rate NEXT_DAY is no longer offered.", count: 1 },
    ])
  })

  it("shares status moves between webhooks and the poll", () => {
    expect(report.status_moves).toEqual({ webhook: 10, poll: 3, admin: 0 })
    expect(report.webhook_share).toBe(0.7692)
  })

  it("lists every option, offered or not, with its counts and reasons, and a deleted one by its fulfillment option", () => {
    expect(report.offers.carts).toBe(7)
    expect(report.offers.by_option).toEqual([
      expect.objectContaining({ name: "lastmile-same-day (deleted)", option_id: null, offered: 1 }),
      {
        option_id: "so_next",
        name: "Next day delivery",
        kind: "delivery",
        fulfillment_option: "lastmile-next-day",
        stock_location_id: "sloc_warehouse",
        stock_location_name: "Warehouse",
        offered: 6,
        chosen: 5,
        unavailable: { input_incomplete: 1 },
      },
      expect.objectContaining({
        option_id: "so_bank",
        name: "Collect from Bank",
        offered: 0,
        chosen: 0,
        unavailable: {},
      }),
      expect.objectContaining({ option_id: "so_soho", offered: 4, chosen: 2, unavailable: { rate_missing: 3 } }),
    ])
    expect(report.previous.offers.carts).toBe(4)
    expect(report.previous.offers.by_option.find((r) => r.option_id === "so_soho")?.offered).toBe(2)
  })

  it("gives the period before the same figures", () => {
    expect(report.previous.period).toEqual({ from: "2026-10-02", to: "2026-10-31" })
    expect(report.previous.deliveries).toMatchObject({ booked: 1, delivered: 0 })
  })

  it("plots weeks from the Monday of the period's first", () => {
    expect(report.weeks.map((w) => w.week)).toEqual([
      "2026-10-26",
      "2026-11-02",
      "2026-11-09",
      "2026-11-16",
      "2026-11-23",
      "2026-11-30",
    ])
    expect(report.weeks.find((w) => w.week === "2026-11-09")).toMatchObject({ early: 1, on_time: 1, late: 0 })
    expect(report.weeks.find((w) => w.week === "2026-11-16")).toMatchObject({ on_time: 1, late: 2, no_window: 1 })
    expect(report.weeks.find((w) => w.week === "2026-10-26")).toMatchObject({ on_time: 1, booked: 0 })
  })

  it("says how many tasks the demo made up", () => {
    expect(report.demo_tasks).toBe(1)
  })

  it("filters to one store: its collections and its options only", () => {
    const soho = buildInsightsReport({
      period: PERIOD,
      timeZone: TZ,
      tasks,
      counts,
      options,
      stores: [],
      stockLocationId: "sloc_soho",
      co2Unit: "kg",
      now: NOW,
    })
    expect(soho.deliveries.delivered).toBe(0)
    expect(soho.collections).toMatchObject({ booked: 2, collected: 1, not_collected: 1 })
    expect(soho.offers.by_option.map((r) => r.option_id)).toEqual(["so_soho"])
    expect(soho.offers.carts).toBe(7)
  })

  it("answers the same figures as CSV, formulas made text", () => {
    const csv = insightsCsv(report)
    const lines = csv.trimEnd().split("\r\n")
    expect(lines[0]).toBe(
      "section,metric,week,option_id,option_name,stock_location_id,stock_location_name,reason,value,previous_value"
    )
    expect(lines).toContain("deliveries,on_time,,,,,,,4,0")
    expect(lines).toContain("offers,unavailable,,so_soho,Collect from Soho,sloc_soho,Soho,rate_missing,3,0")
    expect(lines).toContain("booking,failure_reason,,,,,,the service failed (503),2,0")
    expect(lines).toContain("weeks,late,2026-11-16,,,,,,2,")
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)")
    expect(csvCell('say "hi", then')).toBe('"say ""hi"", then"')
  })
  it("quotes every cell a spreadsheet of any locale would split, and still makes a leading formula text", () => {
    // Excel in a ;-separator locale (de, fr, nl, es, it) splits an unquoted line at ";".
    expect(csvCell("Store;=1+2")).toBe(`"Store;'=1+2"`)
    expect(csvCell("tab\there")).toBe('"tab\there"')
    expect(csvCell('a "quote"')).toBe('"a ""quote"""')
    expect(csvCell("two\nlines")).toBe('"two\nlines"')
    expect(csvCell("cr\rhere")).toBe('"cr\rhere"')
    expect(csvCell("a,b")).toBe('"a,b"')
    for (const lead of ["=", "+", "-", "@"]) {
      expect(csvCell(`${lead}1+2`)).toBe(`'${lead}1+2`)
    }
    expect(csvCell("\t=1")).toBe(`"'\t'=1"`)
    expect(csvCell("=1;2")).toBe(`"'=1;2"`)
    expect(csvCell("a; -1")).toBe(`"a; '-1"`)
    expect(csvCell("Camden store")).toBe("Camden store")
    const named = insightsCsv({
      ...report,
      offers: {
        ...report.offers,
        by_option: report.offers.by_option.map((row) => ({ ...row, stock_location_name: "Store;=1+2" })),
      },
    })
    const lines = named.split("\r\n").filter((l) => l.includes("Store;"))
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) {
      expect(line).toContain(`"Store;'=1+2"`)
      // Read as a ;-separator locale reads it: a quote mid-field quotes nothing, so the line splits at every ";".
      expect(line.split(";").filter((cell) => /^[=+\-@]/.test(cell))).toEqual([])
    }
  })
})

describe("percentile", () => {
  it("is the nearest rank", () => {
    expect(percentile([], 50)).toBeNull()
    expect(percentile([5], 95)).toBe(5)
    expect(percentile([4, 1, 3, 2], 50)).toBe(2)
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10)
  })
})
