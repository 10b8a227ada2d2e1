/** What a hand-over at the counter came to (decision 65), and what it writes on the task row. */
import type { CollectionRecord, HandOverVia } from "./collection-hold"
import { withHandOver } from "./collection-hold"

export type HandOverDecision =
  | {
      ok: true
      via: HandOverVia
      reason: string | null
      order_id: string
      fulfillment_id: string | null
      /** When it was handed over (ISO 8601). */
      at: string
    }
  | { ok: false; refusal: "not_allowed"; message: string }
  | { ok: false; refusal: "wrong_code"; message: string; attempts_left: number }
  | { ok: false; refusal: "locked"; message: string; retry_at: string }

/** The status a hand-over records in the task's history: a collected one by the status table (`delivered`). */
export const HANDED_OVER_STATUS = "HANDED_OVER"

const HOW: Record<HandOverVia, string> = {
  code: "with the shopper's collection code",
  override: "without the code",
  medusa: "marked picked up in Medusa",
}

/** The history entry a hand-over writes: who, how, and why without the code. */
export function handOverEntry(
  decision: Extract<HandOverDecision, { ok: true }>,
  actor: { id: string | null; name: string | null }
): { value: string; source: string; phase: string; actor_id: string | null; detail: string; at: Date } {
  const who = actor.name ?? actor.id ?? (decision.via === "medusa" ? "Medusa's dashboard" : "an admin user")
  const why = decision.via === "override" && decision.reason ? `: ${decision.reason}` : ""
  return {
    value: HANDED_OVER_STATUS,
    source: "admin",
    phase: "delivered",
    actor_id: actor.id,
    detail: `Handed over at the store ${HOW[decision.via]} by ${who}${why}.`,
    at: new Date(decision.at),
  }
}

/** The record once handed over. */
export function handedOverRecord(
  record: CollectionRecord,
  decision: Extract<HandOverDecision, { ok: true }>,
  actorId: string | null
): CollectionRecord {
  return withHandOver(record, { at: decision.at, via: decision.via, actor_id: actorId, reason: decision.reason })
}
