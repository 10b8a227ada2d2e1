/**
 * The service's status values through a table: defaults for common values, the merchant's `status_map` over them,
 * anything unknown recorded and shown, never fatal.
 */

/** What a status means for the Medusa fulfillment. */
export type TrackingPhase = "awaiting" | "shipped" | "delivered" | "exception" | "cancelled"

export const TRACKING_PHASES: readonly TrackingPhase[] = ["awaiting", "shipped", "delivered", "exception", "cancelled"]

/** Keys are normalised (upper case, words joined by `_`). */
export const DEFAULT_STATUS_TABLE: Readonly<Record<string, TrackingPhase>> = {
  NOT_STARTED: "awaiting",
  CREATED: "awaiting",
  PENDING: "awaiting",
  BOOKED: "awaiting",
  ASSIGNED: "awaiting",
  ACCEPTED: "awaiting",
  SCHEDULED: "awaiting",
  PICKED_UP: "shipped",
  COLLECTED: "shipped",
  STARTED: "shipped",
  IN_PROGRESS: "shipped",
  IN_TRANSIT: "shipped",
  DISPATCHED: "shipped",
  EN_ROUTE: "shipped",
  OUT_FOR_DELIVERY: "shipped",
  ARRIVED: "shipped",
  READY_FOR_COLLECTION: "shipped",
  READY_FOR_PICKUP: "shipped",
  DELIVERED: "delivered",
  COMPLETED: "delivered",
  COMPLETE: "delivered",
  COLLECTED_BY_CUSTOMER: "delivered",
  HANDED_OVER: "delivered",
  FAILED: "exception",
  FAILED_ATTEMPT: "exception",
  DELIVERY_FAILED: "exception",
  ATTEMPTED: "exception",
  ON_HOLD: "exception",
  DELAYED: "exception",
  EXCEPTION: "exception",
  RETURNING: "exception",
  RETURNED: "exception",
  RETURNED_TO_SENDER: "exception",
  CANCELLED: "cancelled",
  CANCELED: "cancelled",
  REJECTED: "cancelled",
  EXPIRED: "cancelled",
}

export function normaliseStatus(value: string): string {
  return value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_")
}

export class StatusTable {
  private readonly table: Record<string, TrackingPhase>

  constructor(overrides: Record<string, TrackingPhase> = {}) {
    this.table = { ...DEFAULT_STATUS_TABLE }
    for (const [value, phase] of Object.entries(overrides)) {
      this.table[normaliseStatus(value)] = phase
    }
  }

  /** The phase of a service status, or null when the table does not know it. */
  phaseOf(value: string): TrackingPhase | null {
    return this.table[normaliseStatus(value)] ?? null
  }
}

/** Forward-only order of the fulfillment's progress; exceptions do not move it. */
const RANK = { awaiting: 0, shipped: 1, delivered: 2, cancelled: 3 } as const
export type TrackingState = keyof typeof RANK

/**
 * The tracking state after a status: never backwards, so a late IN_TRANSIT
 * after DELIVERED changes nothing. An exception or unknown value keeps the
 * state; a cancellation closes tracking unless the parcel was already delivered.
 */
export function nextTrackingState(current: TrackingState, phase: TrackingPhase | null): TrackingState {
  if (phase === null || phase === "exception") {
    return current
  }
  if (current === "delivered" || current === "cancelled") {
    return current
  }
  return RANK[phase] > RANK[current] ? phase : current
}
