/**
 * The messages the plugin sends: one event per step a shopper or the merchant cares about, with its default template
 * id and its channel (decisions 46 and 48), and which service statuses are such a step.
 */
import { type StatusTable, normaliseStatus } from "../tracking/status-table"

/** Messages to the shopper, in the order a task reaches them. */
export const SHOPPER_EVENTS = [
  "delivery_booked",
  "delivery_out_for_delivery",
  "delivery_problem",
  "delivery_delivered",
  "collection_booked",
  "collection_ready",
  "collection_reminder",
  "collection_extended",
  "collection_collected",
  "return_booked",
  "return_received",
] as const

/** Messages to the merchant, on the admin's feed. */
export const MERCHANT_EVENTS = [
  "merchant_booking_failed",
  "merchant_booking_needs_attention",
  "merchant_delivery_problem",
  "merchant_not_collected",
  "merchant_task_cancelled",
] as const

export type ShopperEvent = (typeof SHOPPER_EVENTS)[number]
export type MerchantEvent = (typeof MERCHANT_EVENTS)[number]
export type LastmileNotificationEvent = ShopperEvent | MerchantEvent

export const NOTIFICATION_EVENTS: readonly LastmileNotificationEvent[] = [...SHOPPER_EVENTS, ...MERCHANT_EVENTS]

export type NotificationAudience = "shopper" | "merchant"

export function audienceOf(event: LastmileNotificationEvent): NotificationAudience {
  return (MERCHANT_EVENTS as readonly string[]).includes(event) ? "merchant" : "shopper"
}

/** `delivery_out_for_delivery` → `lastmile-delivery-out-for-delivery`. */
export function defaultTemplateOf(event: LastmileNotificationEvent): string {
  return `lastmile-${event.replace(/_/g, "-")}`
}

/** How the parcel reaches the shopper, as the messages tell it. */
export type TaskMode = "delivery" | "collection" | "return"

/**
 * Which service statuses are a step a shopper is told about: "out for delivery" and "ready for collection" named by
 * value inside the `shipped` phase (decision 46).
 */
/** What a service status is for the messages: `none` silences a value. */
export type StatusEvent = "out_for_delivery" | "ready_for_collection" | "problem" | "none"

export const STATUS_EVENTS: readonly StatusEvent[] = ["out_for_delivery", "ready_for_collection", "problem", "none"]

/** Keys are normalised like the status table's (upper case, words joined by `_`). */
export const DEFAULT_STATUS_EVENTS: Readonly<Record<string, StatusEvent>> = {
  OUT_FOR_DELIVERY: "out_for_delivery",
  EN_ROUTE: "out_for_delivery",
  READY_FOR_COLLECTION: "ready_for_collection",
  READY_FOR_PICKUP: "ready_for_collection",
}

/** What a delivery problem was, for the message's words. */
export type ProblemKind = "failed_attempt" | "delayed" | "returning" | "other"

const PROBLEM_KINDS: Readonly<Record<string, ProblemKind>> = {
  FAILED: "failed_attempt",
  FAILED_ATTEMPT: "failed_attempt",
  DELIVERY_FAILED: "failed_attempt",
  ATTEMPTED: "failed_attempt",
  DELIVERY_ATTEMPTED: "failed_attempt",
  DELAYED: "delayed",
  ON_HOLD: "delayed",
  RETURNING: "returning",
  RETURNED: "returning",
  RETURNED_TO_SENDER: "returning",
}

export function problemKindOf(value: string): ProblemKind {
  return PROBLEM_KINDS[normaliseStatus(value)] ?? "other"
}

/** A status as a step of the task's messages (null: none). */
export type TaskStep = "out_for_delivery" | "ready_for_collection" | "problem" | "done" | "cancelled"

export class StatusEvents {
  private readonly table: Record<string, StatusEvent>

  constructor(
    private readonly statusTable: StatusTable,
    overrides: Record<string, StatusEvent> = {}
  ) {
    this.table = { ...DEFAULT_STATUS_EVENTS }
    for (const [value, event] of Object.entries(overrides)) {
      this.table[normaliseStatus(value)] = event
    }
  }

  /**
   * The step a service status is for a task of this mode. A delivery is out
   * for delivery, has a problem (any exception), or is done; a collection is
   * ready or done (collected); a return is done (received). A cancellation
   * closes every mode.
   */
  stepOf(value: string, mode: TaskMode): TaskStep | null {
    const named = this.table[normaliseStatus(value)]
    if (named === "none") {
      return null
    }
    const phase = this.statusTable.phaseOf(value)
    if (phase === "cancelled") {
      return "cancelled"
    }
    if (phase === "delivered") {
      return "done"
    }
    if (mode === "delivery") {
      if (named === "out_for_delivery") {
        return "out_for_delivery"
      }
      if (named === "problem" || phase === "exception") {
        return "problem"
      }
    }
    if (mode === "collection" && named === "ready_for_collection") {
      return "ready_for_collection"
    }
    return null
  }
}
