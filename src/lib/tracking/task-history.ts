/**
 * A task's history, as the admin widget shows it: every booking step and every status the service reported, oldest
 * first, a status that comes back recorded once (decision 60). */
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

/** A status that came back keeps at most this many times it came back (its count goes on). */
export const MAX_RETURNS_KEPT = 20

/**
 * The history with a status the service reported: a new entry the first time the task has it, else that entry
 * counted again (`times`, `last_at`, and when, for the first 20 returns), so a task flapping between two statuses
 * does not grow its history with every flap.
 */
export function withStatusEntry(
  history: { entries?: unknown[] } | null | undefined,
  entry: Omit<TaskHistoryEntry, "at"> & { at: Date; source: string }
): { entries: unknown[] } {
  const entries = history?.entries ?? []
  const index = entries.findIndex(
    (e) =>
      !!e && typeof e === "object" && (e as TaskHistoryEntry).value === entry.value && !!(e as TaskHistoryEntry).source
  )
  if (index < 0) {
    return withHistoryEntry(history, entry)
  }
  const earlier = entries[index] as TaskHistoryEntry
  const at = entry.at.toISOString()
  const againAt = earlier.again_at ?? []
  const updated: TaskHistoryEntry = {
    ...earlier,
    times: (earlier.times ?? 1) + 1,
    last_at: at,
    again_at: againAt.length < MAX_RETURNS_KEPT ? [...againAt, at] : againAt,
    ...(entry.window ? { window: entry.window } : {}),
  }
  return { entries: entries.map((e, i) => (i === index ? updated : e)) }
}
