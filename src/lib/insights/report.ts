/**
 * The insights report from task rows and offer counters, without I/O; each figure belongs to the period by the moment
 * it is about (decisions 51 to 53).
 */
import { optionKindOf } from "../contracts/fulfillment-options"
import type { InsightsFigures, InsightsOfferRow, InsightsReport, InsightsWeek } from "../contracts/insights-api"
import { addDays, dayOf, daysBetween, startOfDay, weekOf } from "./calendar"
import { type InsightTaskRow, type TaskFacts, punctuality, taskFacts } from "./task-facts"

/** One counter row (`lastmile_offer_count`): a day's count for an option and store, and a reason. */
export interface OfferCountRow {
  day: string
  kind: "cart" | "offered" | "unavailable" | "chosen"
  fulfillment_option: string
  /** "" when none (a cart). */
  stock_location_id: string
  /** "" unless unavailable. */
  reason: string
  count: number
}

/** A lastmile shipping option as it is now, to name the counters' options. */
export interface CatalogueOption {
  id: string
  name: string
  fulfillment_option: string
  stock_location_id: string | null
  stock_location_name: string | null
}

export type Co2Unit = "kg" | "g"

export interface InsightsInput {
  /** Days, both included. */
  period: { from: string; to: string }
  timeZone: string
  tasks: InsightTaskRow[]
  counts: OfferCountRow[]
  options: CatalogueOption[]
  stores: { id: string; name: string }[]
  /** Only this store (its collections, or the deliveries leaving from it). */
  stockLocationId: string | null
  /** The unit of the service's `co2Savings` figure. */
  co2Unit: Co2Unit
  now: Date
}

/** The period of the same length just before. */
export function previousPeriod(period: { from: string; to: string }): { from: string; to: string } {
  const length = daysBetween(period.from, period.to)
  return { from: addDays(period.from, -length), to: addDays(period.from, -1) }
}

/** The p-th percentile (nearest rank), or null for no values. */
export function percentile(values: number[], p: number): number | null {
  if (!values.length) {
    return null
  }
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

interface Range {
  from: number
  to: number
  fromDay: string
  toDay: string
}

function rangeOf(period: { from: string; to: string }, timeZone: string): Range {
  return {
    from: startOfDay(period.from, timeZone).getTime(),
    to: startOfDay(addDays(period.to, 1), timeZone).getTime(),
    fromDay: period.from,
    toDay: period.to,
  }
}

const within = (range: Range, at: number | null): at is number => at !== null && at >= range.from && at < range.to
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits

function offers(
  counts: OfferCountRow[],
  options: CatalogueOption[],
  range: Range,
  stockLocationId: string | null
): InsightsFigures["offers"] {
  const inRange = counts.filter((c) => c.day >= range.fromDay && c.day <= range.toDay)
  const rows = new Map<string, InsightsOfferRow>()
  const keyOf = (option: string, location: string | null) => `${option}\u0000${location ?? ""}`
  const locationName = new Map(options.map((o) => [o.stock_location_id ?? "", o.stock_location_name]))
  const rowFor = (fulfillmentOption: string, location: string | null): InsightsOfferRow | null => {
    const kind = optionKindOf(fulfillmentOption)
    if (kind !== "delivery" && kind !== "collection") {
      return null
    }
    const key = keyOf(fulfillmentOption, location)
    let row = rows.get(key)
    if (!row) {
      row = {
        option_id: null,
        name: `${fulfillmentOption} (deleted)`,
        kind,
        fulfillment_option: fulfillmentOption,
        stock_location_id: location,
        stock_location_name: locationName.get(location ?? "") ?? null,
        offered: 0,
        chosen: 0,
        unavailable: {},
      }
      rows.set(key, row)
    }
    return row
  }
  // Every option there is now, counted or not: a store never offered is what a merchant looks for.
  for (const option of options) {
    if (stockLocationId && option.stock_location_id !== stockLocationId) {
      continue
    }
    const row = rowFor(option.fulfillment_option, option.stock_location_id)
    if (row && row.option_id === null) {
      row.option_id = option.id
      row.name = option.name
    }
  }
  let carts = 0
  for (const count of inRange) {
    if (count.count === 0) {
      // A cart that moved from unavailable to offered leaves its old reason at zero.
      continue
    }
    if (count.kind === "cart") {
      carts += count.count
      continue
    }
    const location = count.stock_location_id || null
    if (stockLocationId && location !== stockLocationId) {
      continue
    }
    const row = rowFor(count.fulfillment_option, location)
    if (!row) {
      continue
    }
    if (count.kind === "offered") {
      row.offered += count.count
    } else if (count.kind === "chosen") {
      row.chosen += count.count
    } else {
      const reason = count.reason || "unknown"
      row.unavailable[reason] = (row.unavailable[reason] ?? 0) + count.count
    }
  }
  const byOption = [...rows.values()].sort(
    (a, b) =>
      (a.kind === b.kind ? 0 : a.kind === "delivery" ? -1 : 1) ||
      a.name.localeCompare(b.name) ||
      (a.stock_location_id ?? "").localeCompare(b.stock_location_id ?? "")
  )
  if (stockLocationId) {
    // Carts are not per store: those that priced one of this store's options (each counts once per option).
    carts = Math.max(0, ...byOption.map((r) => r.offered + Object.values(r.unavailable).reduce((sum, n) => sum + n, 0)))
  }
  return { carts, by_option: byOption }
}

function figures(
  facts: TaskFacts[],
  counts: OfferCountRow[],
  options: CatalogueOption[],
  range: Range,
  input: Pick<InsightsInput, "stockLocationId" | "co2Unit">
): InsightsFigures {
  const deliveries = { booked: 0, delivered: 0, early: 0, on_time: 0, late: 0, no_window: 0 }
  const collections = { booked: 0, ready_on_time: 0, ready_late: 0, no_window: 0, collected: 0, not_collected: 0 }
  const lateMinutes: number[] = []
  const latencies: number[] = []
  const reasons = new Map<string, number>()
  const moves = { webhook: 0, poll: 0, admin: 0 }
  let co2 = 0
  let failed = 0
  let needsAttention = 0
  for (const task of facts) {
    if (within(range, task.placedAt)) {
      if (task.bookedAt !== null) {
        if (task.mode === "delivery") {
          deliveries.booked++
        } else {
          collections.booked++
        }
        latencies.push(Math.max(0, task.bookedAt - task.placedAt))
      }
      if (task.failure !== null) {
        failed++
        reasons.set(task.failure, (reasons.get(task.failure) ?? 0) + 1)
      }
      if (task.status === "needs_attention") {
        needsAttention++
      }
    }
    if (task.mode === "delivery" && within(range, task.deliveredAt)) {
      deliveries.delivered++
      const when = punctuality(task.deliveredAt, task.window)
      deliveries[when]++
      if (when === "late" && task.window) {
        lateMinutes.push((task.deliveredAt - task.window.to) / 60_000)
      }
    }
    if (task.mode === "collection") {
      if (within(range, task.readyAt)) {
        const when = punctuality(task.readyAt, task.window)
        // Ready before the window opens is ready in time: the shopper collects within it.
        collections[when === "no_window" ? "no_window" : when === "late" ? "ready_late" : "ready_on_time"]++
        if (task.deliveredAt === null) {
          collections.not_collected++
        }
      }
      if (within(range, task.deliveredAt)) {
        collections.collected++
      }
    }
    if (within(range, task.deliveredAt) && task.co2 !== null) {
      co2 += input.co2Unit === "g" ? task.co2 / 1000 : task.co2
    }
    for (const move of task.moves) {
      if (within(range, move.at) && (move.source === "webhook" || move.source === "poll" || move.source === "admin")) {
        moves[move.source]++
      }
    }
  }
  const tracked = moves.webhook + moves.poll
  return {
    offers: offers(counts, options, range, input.stockLocationId),
    deliveries: {
      ...deliveries,
      late_minutes_p50: lateMinutes.length ? Math.round(percentile(lateMinutes, 50)!) : null,
    },
    collections,
    co2_saved_kg: round(co2),
    booking: {
      placed_to_booked_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
      failed,
      needs_attention: needsAttention,
      failure_reasons: [...reasons.entries()]
        .map(([reason, count]) => ({ reason, count }))
        .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    },
    webhook_share: tracked ? round(moves.webhook / tracked, 4) : null,
    status_moves: moves,
  }
}

function weeks(facts: TaskFacts[], range: Range, input: Pick<InsightsInput, "timeZone" | "co2Unit">): InsightsWeek[] {
  const byWeek = new Map<string, InsightsWeek & { latencies: number[] }>()
  for (let day = weekOf(range.fromDay); day <= range.toDay; day = addDays(day, 7)) {
    byWeek.set(day, {
      week: day,
      early: 0,
      on_time: 0,
      late: 0,
      no_window: 0,
      co2_saved_kg: 0,
      booked: 0,
      placed_to_booked_p50_ms: null,
      failed: 0,
      latencies: [],
    })
  }
  const weekAt = (at: number) => byWeek.get(weekOf(dayOf(at, input.timeZone)))
  for (const task of facts) {
    if (within(range, task.deliveredAt)) {
      const week = weekAt(task.deliveredAt)
      if (week) {
        if (task.mode === "delivery") {
          week[punctuality(task.deliveredAt, task.window)]++
        }
        if (task.co2 !== null) {
          week.co2_saved_kg += input.co2Unit === "g" ? task.co2 / 1000 : task.co2
        }
      }
    }
    if (within(range, task.placedAt)) {
      const week = weekAt(task.placedAt)
      if (week && task.bookedAt !== null) {
        week.booked++
        week.latencies.push(Math.max(0, task.bookedAt - task.placedAt))
      }
      if (week && task.failure !== null) {
        week.failed++
      }
    }
  }
  return [...byWeek.values()].map(({ latencies, ...week }) => ({
    ...week,
    co2_saved_kg: round(week.co2_saved_kg),
    placed_to_booked_p50_ms: percentile(latencies, 50),
  }))
}

/** The report for a period and the one before it, from the rows of both. */
export function buildInsightsReport(input: InsightsInput): InsightsReport {
  const facts = input.tasks
    .map(taskFacts)
    .filter((f): f is TaskFacts => f !== null)
    .filter((f) => !input.stockLocationId || f.stockLocationId === input.stockLocationId)
  const current = rangeOf(input.period, input.timeZone)
  const before = previousPeriod(input.period)
  const earlier = rangeOf(before, input.timeZone)
  const touches = (f: TaskFacts, range: Range) =>
    within(range, f.placedAt) || within(range, f.deliveredAt) || within(range, f.readyAt)
  return {
    period: { ...input.period, time_zone: input.timeZone },
    ...figures(facts, input.counts, input.options, current, input),
    previous: { period: before, ...figures(facts, input.counts, input.options, earlier, input) },
    weeks: weeks(facts, current, input),
    stock_location_id: input.stockLocationId,
    stores: input.stores,
    demo_tasks: facts.filter((f) => f.demo && touches(f, current)).length,
    generated_at: input.now.toISOString(),
  }
}
