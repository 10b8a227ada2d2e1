/**
 * A collection's life at the store as its task row keeps it (decision 65): code, ready, collect-by, extensions,
 * hand-over and wrong codes; the merchant's view (never the code) and the shopper's (the code, once ready).
 */
import { z } from "zod"
import type { TaskCollectionView } from "../contracts/admin-api"
import { codeMatches, newCollectionCode } from "./collection-code"
import { localDateOf } from "./store-calendar"

/** Five wrong codes within this long lock the hand-over by code until the oldest of them is this old. */
export const WRONG_CODE_WINDOW_MS = 15 * 60_000
export const MAX_WRONG_CODES = 5

export type HandOverVia = "code" | "override" | "medusa"

const isoTime = z.string().refine((value) => !Number.isNaN(Date.parse(value)))

const recordSchema = z.object({
  code: z.string().min(1),
  hold_days: z.number().int().positive(),
  ready_at: isoTime.nullable().catch(null),
  collect_by: isoTime.nullable().catch(null),
  extensions: z
    .array(
      z.object({
        at: isoTime,
        days: z.number().int().positive(),
        collect_by: isoTime,
        actor_id: z.string().nullable().catch(null),
      })
    )
    .catch([]),
  handed_over: z
    .object({
      at: isoTime,
      via: z.enum(["code", "override", "medusa"]),
      actor_id: z.string().nullable().catch(null),
      reason: z.string().nullable().catch(null),
    })
    .nullable()
    .catch(null),
  wrong_codes: z.array(isoTime).catch([]),
})

export type CollectionRecord = z.infer<typeof recordSchema>

/** The row's record, or null when it has none (a delivery, or a collection booked before the plugin kept one). */
export function readCollectionRecord(value: unknown): CollectionRecord | null {
  const parsed = recordSchema.safeParse(value)
  return parsed.success ? parsed.data : null
}

/** A new collection's record: its code, drawn once, and the hold it will get when it is ready. */
export function newCollectionRecord(holdDays: number): CollectionRecord {
  return {
    code: newCollectionCode(),
    hold_days: holdDays,
    ready_at: null,
    collect_by: null,
    extensions: [],
    handed_over: null,
    wrong_codes: [],
  }
}

/** The record once the collection is ready: when, and until when it is held. Kept as first told. */
export function withReady(
  record: CollectionRecord | null,
  ready: { ready_at: string; collect_by: string },
  holdDays: number
): CollectionRecord {
  const held = record ?? newCollectionRecord(holdDays)
  return held.ready_at ? held : { ...held, ...ready }
}

/** The collect-by in force: the latest extension's, else the first. */
export function currentCollectBy(record: CollectionRecord): string | null {
  return record.extensions.at(-1)?.collect_by ?? record.collect_by
}

/** The wrong codes still counted at `now`. */
function recentWrongCodes(record: CollectionRecord, now: Date): string[] {
  return record.wrong_codes.filter((at) => now.getTime() - Date.parse(at) < WRONG_CODE_WINDOW_MS)
}

/** Until when the hand-over by code is locked (five wrong codes in 15 minutes), or null. */
export function lockedUntil(record: CollectionRecord, now: Date): string | null {
  const recent = recentWrongCodes(record, now)
  if (recent.length < MAX_WRONG_CODES) {
    return null
  }
  const unlock = Date.parse(recent[recent.length - MAX_WRONG_CODES]) + WRONG_CODE_WINDOW_MS
  return new Date(unlock).toISOString()
}

/** What the merchant's hand-over asks for. */
export type HandOverAsk = { code: string } | { override_reason: string } | { picked_up_in_medusa: true }

export type HandOverCheck =
  | { ok: true; via: HandOverVia; reason: string | null }
  | { ok: false; refusal: "wrong_code"; record: CollectionRecord; attempts_left: number }
  | { ok: false; refusal: "locked"; retry_at: string; record?: CollectionRecord }

/**
 * Whether a hand-over may go ahead: an override or Medusa's own pick-up always may; a code must match, and once five
 * wrong codes fall within 15 minutes none is tried (not even the right one) until the window moves on. A wrong code
 * comes back with the record that counts it.
 */
export function checkHandOver(record: CollectionRecord, ask: HandOverAsk, now: Date): HandOverCheck {
  if ("override_reason" in ask) {
    return { ok: true, via: "override", reason: ask.override_reason }
  }
  if ("picked_up_in_medusa" in ask) {
    return { ok: true, via: "medusa", reason: null }
  }
  const locked = lockedUntil(record, now)
  if (locked) {
    return { ok: false, refusal: "locked", retry_at: locked }
  }
  if (codeMatches(ask.code, record.code)) {
    return { ok: true, via: "code", reason: null }
  }
  const wrong_codes = [...recentWrongCodes(record, now), now.toISOString()]
  const counted = { ...record, wrong_codes }
  // The fifth wrong code is the one that locks: it is answered as locked already.
  const lockedNow = lockedUntil(counted, now)
  return lockedNow
    ? { ok: false, refusal: "locked", retry_at: lockedNow, record: counted }
    : { ok: false, refusal: "wrong_code", record: counted, attempts_left: MAX_WRONG_CODES - wrong_codes.length }
}

/** The record once handed over (the wrong codes no longer matter). */
export function withHandOver(
  record: CollectionRecord,
  handed: { at: string; via: HandOverVia; actor_id: string | null; reason: string | null }
): CollectionRecord {
  return { ...record, handed_over: handed, wrong_codes: [] }
}

/** The record with one more extension. */
export function withExtension(
  record: CollectionRecord,
  extension: { at: string; days: number; collect_by: string; actor_id: string | null }
): CollectionRecord {
  return { ...record, extensions: [...record.extensions, extension] }
}

/** Where a collection task stands for the hand-over and an extension. */
export interface CollectionTaskState {
  /** The row's booking status (booked, …) and tracking state (awaiting, shipped, delivered, cancelled). */
  status: string
  tracking_state: string
  cancelled: boolean
}

/** Why a collection cannot be handed over now (null: it can). */
export function handOverRefusal(task: CollectionTaskState, record: CollectionRecord | null): string | null {
  if (task.status !== "booked") {
    return `This collection is not booked (${task.status}): there is nothing at the store to hand over yet.`
  }
  if (task.cancelled || task.tracking_state === "cancelled") {
    return "This collection was cancelled: it cannot be handed over."
  }
  if (record?.handed_over || task.tracking_state === "delivered") {
    return "This collection has been collected already."
  }
  return null
}

/** Why a collection cannot be extended now (null: it can). */
export function extendRefusal(task: CollectionTaskState, record: CollectionRecord | null): string | null {
  const refusal = handOverRefusal(task, record)
  if (refusal) {
    return refusal
  }
  return record?.ready_at && currentCollectBy(record)
    ? null
    : "This collection is not ready at the store yet: its collect-by starts when it is."
}

/** The collect-by of a hold that is running: ready, not collected, not cancelled; null otherwise. */
function heldUntil(task: CollectionTaskState, record: CollectionRecord | null): string | null {
  const by = record ? currentCollectBy(record) : null
  return by && record?.ready_at && !handOverRefusal(task, record) ? by : null
}

/**
 * Whether a ready hold, still open, ends on one of the store's closed dates (one the merchant added after it was set):
 * it is then held past the closure, to the next open day's closing.
 */
export function endsOnClosedDate(
  task: CollectionTaskState,
  record: CollectionRecord | null,
  closedDates: readonly string[],
  timeZone: string,
  now: Date
): boolean {
  const by = heldUntil(task, record)
  return !!by && Date.parse(by) > now.getTime() && closedDates.includes(localDateOf(new Date(by), timeZone))
}

/** Ready, not collected, not cancelled, and its collect-by has passed. */
export function isExpired(task: CollectionTaskState, record: CollectionRecord | null, now: Date): boolean {
  const by = heldUntil(task, record)
  return !!by && Date.parse(by) <= now.getTime()
}

/** A collection ready at its store as the shopper's order page shows it (`booking.collection`); null before ready. */
export function shopperCollectionView<TStore>(
  record: CollectionRecord | null,
  task: CollectionTaskState,
  store: { view: TStore; instructions: string | null } | null,
  now: Date
): {
  ready_at: string
  collect_by: string | null
  code: string | null
  collected: boolean
  expired: boolean
  store: TStore | null
  instructions: string | null
} | null {
  if (!record?.ready_at || task.status !== "booked") {
    return null
  }
  const collected = !!record.handed_over || task.tracking_state === "delivered"
  const closed = task.cancelled || task.tracking_state === "cancelled"
  return {
    ready_at: record.ready_at,
    collect_by: currentCollectBy(record),
    code: collected || closed ? null : record.code,
    collected,
    expired: isExpired(task, record, now),
    store: store?.view ?? null,
    instructions: store?.instructions ?? null,
  }
}

/** A collection's hold as the merchant's order widget shows it: never the code (decision 65). */
export function merchantCollectionView(
  record: CollectionRecord | null,
  task: CollectionTaskState,
  now: Date
): TaskCollectionView {
  return {
    ready_at: record?.ready_at ?? null,
    collect_by: record ? currentCollectBy(record) : null,
    expired: isExpired(task, record, now),
    hold_days: record?.hold_days ?? null,
    extensions: record?.extensions ?? [],
    handed_over: record?.handed_over ?? null,
    locked_until: record ? lockedUntil(record, now) : null,
    can_hand_over: handOverRefusal(task, record) === null,
    can_extend: extendRefusal(task, record) === null,
  }
}
