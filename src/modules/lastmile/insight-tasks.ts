/**
 * The task rows an insights report needs (decision 51), in one raw statement: a month's rows are read whole, only the
 * columns the report reads, and the report needs no entity.
 */
import type { InsightTaskRow } from "../../lib/insights/task-facts"

interface RawSql {
  execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>
}

export async function readInsightTasks(manager: RawSql, from: Date, to: Date): Promise<InsightTaskRow[]> {
  // Every row that may have moved in the period: placed in it, or updated since it began (a delivery or a status
  // move updates it).
  const rows = await manager.execute(
    `SELECT id, kind, mode, status, rate_code, stock_location_id, placed_at, created_at, booked_at,
            quoted_rate, status_history, last_error
     FROM lastmile_task
     WHERE deleted_at IS NULL
       AND (updated_at >= ? OR COALESCE(placed_at, created_at) >= ?)
       AND COALESCE(placed_at, created_at) < ?`,
    [from, from, to]
  )
  return rows.map((r) => ({
    id: String(r.id),
    kind: String(r.kind),
    mode: text(r.mode),
    status: String(r.status),
    rate_code: text(r.rate_code),
    stock_location_id: text(r.stock_location_id),
    placed_at: when(r.placed_at),
    created_at: when(r.created_at) ?? new Date(0),
    booked_at: when(r.booked_at),
    quoted_rate: r.quoted_rate,
    status_history: r.status_history,
    last_error: text(r.last_error),
  }))
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null
}

/** PostgreSQL gives timestamps as Date; a string is read as ISO 8601. */
function when(value: unknown): Date | string | null {
  return value instanceof Date || typeof value === "string" ? value : null
}
