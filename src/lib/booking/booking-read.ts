/**
 * What the booking workflow reads of Medusa for each kind of task (`medusa/`), as step results travel (JSON): the
 * shapes its planner (`booking-plan.ts`) decides from.
 */
import type { BookingSubject } from "./book-at-service"
import type { BookingSkip } from "./booking-outcome"
import type { DeliveryUnit } from "./delivery-unit"
import type { TaskOrigin } from "./task-label"
import type { LastmileFulfillmentData, toFulfillmentData } from "../contracts/plugin-data"

/** Which task to book: a fulfillment Medusa created, an order's delivery the plugin fulfils, or a return. */
export type BookingTarget =
  | { kind: "fulfillment"; fulfillment_id: string }
  /** The order's own delivery, or with `reference_id` an exchange's or a claim's replacement. */
  | { kind: "order"; order_id: string; reference_id?: string }
  | { kind: "return"; return_id: string }

/** A delivery or return ready to go to the service. */
export interface BookingRead {
  origin: TaskOrigin
  order_id: string
  fulfillment_id: string
  subject: Omit<BookingSubject, "lookupFirst">
  /** What the fulfillment's public data shows besides the tracking. */
  shown: Required<Omit<Parameters<typeof toFulfillmentData>[1], "bookedAt">>
  /** The task row's columns of the rate's promise (insights, notifications); `placed_at` is ISO 8601. */
  context: {
    mode: "delivery" | "collection" | "return"
    shipping_option_id: string | null
    stock_location_id: string | null
    placed_at: string | null
  }
}

/** A lastmile fulfillment Medusa created: not the plugin's to book, refused, or what it books. */
export type FulfillmentIdentity =
  { action: "skip"; reason: string } | { action: "refuse"; reason: string } | ({ action: "book" } & BookingRead)

/** The booking a fulfillment's public data holds, if any. */
export type HeldBooking = LastmileFulfillmentData | null

/** The order's delivery the plugin fulfils (its own, or a replacement's). */
export type OrderDeliveryRead =
  | { skip: "not_lastmile" | "cancelled" }
  | (DeliveryUnit & {
      order_id: string
      shipping_option_id: string
      /** The unfulfilled items the option ships. */
      items: { id: string; quantity: number }[]
      /** The order's live fulfillments of the delivery's lines, each with the booking its data holds (or none). */
      live: { id: string; data: unknown; booking: HeldBooking }[]
      /** A live fulfillment Medusa created and nobody booked (a process stopped inside its workflow), as read. */
      pending: { id: string; identity: FulfillmentIdentity } | null
    })

/** A return on the lastmile return option, whichever road made it. */
export type ReturnRead =
  | { skip: "not_lastmile" | "cancelled" }
  | ({
      cancelled: boolean
      /** The booking the return's fulfillment holds already, if any. */
      held: HeldBooking
    } & BookingRead)

/** What a booking run read, by the kind of its task (the fulfillment's, before its lock; the others' under it). */
export type BookingReads =
  | { kind: "skip"; outcome: BookingSkip }
  | { kind: "refuse"; reason: string }
  | { kind: "fulfillment"; read: BookingRead }
  | { kind: "order"; read: OrderDeliveryRead }
  | { kind: "return"; read: ReturnRead }

/** A target's reference at the service (decision 2), when it is known without reading (not a fulfillment's). */
export function referenceOf(target: Exclude<BookingTarget, { kind: "fulfillment" }>): string {
  return target.kind === "order" ? (target.reference_id ?? target.order_id) : target.return_id
}

/** A delivery task's target: its order's own delivery, or an exchange's or a claim's replacement. */
export function deliveryTargetOf(task: {
  order_id: string
  origin: string | null
  merchant_order_id: string
}): BookingTarget {
  const replacement = task.origin === "exchange" || task.origin === "claim"
  const target: BookingTarget = { kind: "order", order_id: task.order_id }
  return replacement ? { ...target, reference_id: task.merchant_order_id } : target
}

/** What the merchant's Retry on a task books, or why it cannot. */
export function retryTargetOf(task: {
  status: string
  kind: "delivery" | "return"
  origin: string | null
  order_id: string
  merchant_order_id: string
  return_id: string | null
  task_id: string | null
}): BookingTarget | { refused: string } {
  if (task.status === "booked") {
    return { refused: `This is booked already as task ${task.task_id}` }
  }
  if (task.status === "cancelled") {
    return { refused: "The order was cancelled: nothing is booked for it." }
  }
  if (task.kind === "return") {
    return task.return_id
      ? { kind: "return", return_id: task.return_id }
      : { refused: "This return task names no return" }
  }
  if (task.origin === "part") {
    return {
      refused:
        "These items were fulfilled by hand and the fulfillment was undone: fulfil them again from the order page to book them.",
    }
  }
  return deliveryTargetOf(task)
}
