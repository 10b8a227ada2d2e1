/**
 * A task's history: every booking step and every status the service reported,
 * oldest first, as the admin widget shows it.
 */
import type { TaskHistoryEntry } from "../contracts/admin-api"

/** The history with one more entry, stamped now unless `at` is given. */
export function withHistoryEntry(
  history: { entries?: unknown[] } | null | undefined,
  entry: Omit<TaskHistoryEntry, "at"> & { at?: Date }
): { entries: unknown[] } {
  const { at, ...rest } = entry
  const stamped: TaskHistoryEntry = { ...rest, at: (at ?? new Date()).toISOString() }
  // Absent optional fields are left out of the stored JSON.
  const clean = Object.fromEntries(Object.entries(stamped).filter(([, value]) => value !== undefined))
  return { entries: [...(history?.entries ?? []), clean] }
}
