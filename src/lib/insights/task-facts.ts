/**
 * What a task row says about one parcel for insights: its moments, its quoted window and CO₂, early, on time or late
 * (decision 52); every field read from the row's JSON is checked.
 */
import { normaliseStatus } from "../tracking/status-table"

/** A task row as insights read it (the columns of `lastmile_task` they need). */
export interface InsightTaskRow {
  id: string
  kind: string
  mode: string | null
  status: string
  rate_code: string | null
  stock_location_id: string | null
  placed_at: Date | string | null
  created_at: Date | string
  booked_at: Date | string | null
  quoted_rate: unknown
  status_history: unknown
  last_error: string | null
}

export interface HistoryEntry {
  value: string
  at: number
  source?: string
  phase?: string
  detail?: string
}

export interface TaskFacts {
  id: string
  mode: "delivery" | "collection"
  status: string
  stockLocationId: string | null
  placedAt: number
  bookedAt: number | null
  window: { from: number; to: number } | null
  /** The service's figure, as given (its unit: the plugin's `insights.co2_unit`). */
  co2: number | null
  readyAt: number | null
  /** Delivered (a delivery) or collected (a collection). */
  deliveredAt: number | null
  /** The latest reason of a failed attempt, when one failed. */
  failure: string | null
  moves: { source: string; at: number }[]
  demo: boolean
}

/** Service statuses that mean a collection is waiting at the store (normalised: upper case, `_`). */
export const READY_STATUSES: ReadonlySet<string> = new Set([
  "READY_FOR_COLLECTION",
  "READY_FOR_PICKUP",
  "READY_TO_COLLECT",
  "AWAITING_COLLECTION",
  "READY",
])

/** The source the demo marks the tasks it aged with (demo/history.ts). */
export const DEMO_HISTORY_SOURCE = "demo"

/** The statuses a booking failure is recorded with (the module's recordFailure). */
const FAILURE_VALUES = new Set(["failed", "needs_attention"])

function time(value: Date | string | null | undefined): number | null {
  if (value === null || value === undefined) {
    return null
  }
  const t = value instanceof Date ? value.getTime() : Date.parse(value)
  return Number.isFinite(t) ? t : null
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

/** The history's entries that can be read, oldest first as written. */
export function historyEntries(history: unknown): HistoryEntry[] {
  const entries = record(history)?.entries
  if (!Array.isArray(entries)) {
    return []
  }
  return entries.flatMap((raw) => {
    const entry = record(raw)
    const at = time(typeof entry?.at === "string" ? entry.at : null)
    if (!entry || typeof entry.value !== "string" || at === null) {
      return []
    }
    const text = (key: string) => (typeof entry[key] === "string" ? (entry[key] as string) : undefined)
    return [{ value: entry.value, at, source: text("source"), phase: text("phase"), detail: text("detail") }]
  })
}

/** The window and CO₂ figure of the rate a task was booked at (`QuotedRate`), when it has them. */
export function quotedPromise(quoted: unknown): { window: { from: number; to: number } | null; co2: number | null } {
  const rate = record(quoted)
  const window = record(rate?.window)
  const from = time(typeof window?.from === "string" ? window.from : null)
  const to = time(typeof window?.to === "string" ? window.to : null)
  const co2 = rate?.co2_savings
  return {
    window: from !== null && to !== null && from <= to ? { from, to } : null,
    co2: typeof co2 === "number" && Number.isFinite(co2) && co2 >= 0 ? co2 : null,
  }
}

/** The facts of a delivery or collection task; null for a return (insights measure what shoppers ordered). */
export function taskFacts(row: InsightTaskRow): TaskFacts | null {
  if (row.kind === "return" || row.mode === "return") {
    return null
  }
  const mode = row.mode === "collection" || (!row.mode && row.rate_code === "SVC_COL") ? "collection" : "delivery"
  const entries = historyEntries(row.status_history)
  // Status moves the tracking sync recorded carry their source; booking steps carry none.
  const tracked = entries.filter((e) => e.source !== undefined && e.source !== DEMO_HISTORY_SOURCE)
  const delivered = tracked.find((e) => e.phase === "delivered")
  const ready = tracked.find((e) => READY_STATUSES.has(normaliseStatus(e.value)))
  const failures = entries.filter((e) => e.source === undefined && FAILURE_VALUES.has(e.value))
  const lastFailure = failures[failures.length - 1]
  const { window, co2 } = quotedPromise(row.quoted_rate)
  const deliveredAt = delivered?.at ?? null
  return {
    id: row.id,
    mode,
    status: row.status,
    stockLocationId: row.stock_location_id,
    placedAt: time(row.placed_at) ?? time(row.created_at) ?? 0,
    bookedAt: time(row.booked_at),
    window,
    co2,
    // A collection collected with no "ready" status recorded (a service that skips it) was ready by then.
    readyAt: mode === "collection" ? (ready?.at ?? deliveredAt) : null,
    deliveredAt,
    failure: lastFailure ? (lastFailure.detail ?? row.last_error ?? lastFailure.value) : null,
    moves: tracked.map((e) => ({ source: e.source as string, at: e.at })),
    demo: entries.some((e) => e.source === DEMO_HISTORY_SOURCE),
  }
}

export type Punctuality = "early" | "on_time" | "late" | "no_window"

/** Where a delivery falls against its window: on time between its start and its end, both included. */
export function punctuality(at: number, window: { from: number; to: number } | null): Punctuality {
  if (!window) {
    return "no_window"
  }
  if (at < window.from) {
    return "early"
  }
  return at > window.to ? "late" : "on_time"
}
