/**
 * The booking's plan under the task's lock (decision 39): skip, refuse, `fulfil` (the hook books with this run's lock)
 * or `book`, and what the row is told before anything reaches the service.
 */
import type { BookingSubject } from "./book-at-service"
import { BOOKING_ERROR_CODES, type BookingErrorCode, type BookingSkip } from "./booking-outcome"
import type { BookingRead, BookingReads, HeldBooking } from "./booking-read"
import { type BookingAdditionalData, isPendingBooking } from "../contracts/plugin-data"

/** An attempt under way on a task row. */
export type Attempt = { task_row_id: string; attempts: number }

export type BookingPlan =
  | { action: "skip"; outcome: BookingSkip }
  | { action: "refuse"; code: BookingErrorCode; reason: string }
  | ({
      action: "fulfil"
      fulfillment: {
        order_id: string
        shipping_option_id: string
        items: { id: string; quantity: number }[]
        additional_data: { lastmile: BookingAdditionalData }
      }
    } & Attempt)
  | ({ action: "book"; read: BookingRead; subject: BookingSubject } & Attempt)

/** The row a booking finds or creates (by its reference at the service). */
export interface TaskToPrepare {
  kind: "delivery" | "return"
  origin: "order" | "exchange" | "claim" | "part" | "return"
  order_id: string
  merchant_order_id: string
  name?: string | null
  return_id?: string | null
  fulfillment_id?: string | null
  rate_code?: string | null
  delivery_type?: string | null
  merchant_location_id?: string | null
  mode?: "delivery" | "collection" | "return"
  shipping_option_id?: string | null
  stock_location_id?: string | null
  placed_at?: string | null
}

/** What an attempt books, written on the row as it starts. */
export type AttemptDetails = Omit<TaskToPrepare, "kind" | "origin" | "order_id" | "merchant_order_id" | "return_id">

/** The task row's columns the plan reads. */
export interface PlannedTask {
  id: string
  merchant_order_id: string
  status: "pending" | "booking" | "booked" | "failed" | "needs_attention" | "cancelled"
  attempts: number
  fulfillment_id: string | null
  task_id: string | null
  tracking_id: string | null
  last_error: string | null
}

/** What the row is told beside the plan. */
export type RowWrite =
  | { write: "none" }
  | { write: "start"; details: AttemptDetails; continuing?: number }
  | { write: "booked_from_fulfillment"; fulfillment_id: string; booking: NonNullable<HeldBooking> }
  | { write: "needs_attention"; reason: string }
  | { write: "nothing_to_book" }

/** The row to find or create, or the plan when the run needs none (and the reference's rows to close, if any). */
export function taskToPrepare(
  reads: BookingReads
): { task: TaskToPrepare } | { plan: BookingPlan; close?: { merchant_order_id: string; detail: string } } {
  switch (reads.kind) {
    case "skip":
      return { plan: { action: "skip", outcome: reads.outcome } }
    case "refuse":
      return { plan: { action: "refuse", code: BOOKING_ERROR_CODES.needsAttention, reason: reads.reason } }
    case "fulfillment": {
      const { read } = reads
      const task = { kind: "delivery" as const, origin: read.origin, order_id: read.order_id }
      return { task: { ...task, merchant_order_id: read.subject.merchantOrderId, ...attemptDetailsOf(read) } }
    }
    case "order": {
      const { read } = reads
      if ("skip" in read) {
        return { plan: { action: "skip", outcome: { status: read.skip } } }
      }
      const { origin, order_id, merchantOrderId, merchantOrderName } = read
      return {
        task: { kind: "delivery", origin, order_id, merchant_order_id: merchantOrderId, name: merchantOrderName },
      }
    }
    case "return": {
      const { read } = reads
      if ("skip" in read) {
        return { plan: { action: "skip", outcome: { status: read.skip } } }
      }
      const reference = read.subject.merchantOrderId
      if (read.cancelled) {
        // A cancelled return is never booked, and its row (if any) is closed so no pass reads it again.
        const detail = "Cancelled in Medusa before it was booked: it is never booked."
        return {
          plan: { action: "skip", outcome: { status: "cancelled" } },
          close: { merchant_order_id: reference, detail },
        }
      }
      const { order_id, fulfillment_id } = read
      return {
        task: {
          kind: "return",
          origin: "return",
          order_id,
          return_id: reference,
          fulfillment_id,
          merchant_order_id: reference,
        },
      }
    }
  }
}

export interface PlanInput {
  reads: BookingReads
  task: PlannedTask
  /** The plugin's own run started this attempt on the row already and hands it over (the hook). */
  handed?: number
  /** The merchant asked for it: a task waiting for their decision is booked again too. */
  retry_needs_attention?: boolean
  /** The owner of the task's lock this run holds, handed to the hook of a fulfillment it creates. */
  lock_owner: string
  /** The task ids the order's booked rows hold (read when `bookedRowsNeeded` says so). */
  booked_task_ids?: (string | null)[]
}

/** Whether the plan needs the task ids of the order's booked rows: a live fulfillment holds a booking the row lacks. */
export function bookedRowsNeeded(reads: BookingReads, task: PlannedTask): boolean {
  return reads.kind === "order" && !("skip" in reads.read) && !task.task_id && reads.read.live.some((f) => !!f.booking)
}

export function planBooking(input: PlanInput): { plan: BookingPlan; row: RowWrite } {
  const { reads, task } = input
  if (reads.kind === "fulfillment") {
    return planFulfillment(reads.read, task, input.handed)
  }
  if (reads.kind === "order" && !("skip" in reads.read)) {
    return planOrderDelivery(reads.read, input)
  }
  if (reads.kind === "return" && !("skip" in reads.read)) {
    return planReturn(reads.read, input)
  }
  // `taskToPrepare` planned the rest without a row.
  throw new Error(`lastmile: nothing to plan for a ${reads.kind} read with a row`)
}

const skip = (outcome: BookingSkip, row: RowWrite = { write: "none" }) => ({
  plan: { action: "skip", outcome } as const,
  row,
})

function attemptDetailsOf(read: BookingRead): AttemptDetails {
  return {
    name: read.subject.merchantOrderName,
    rate_code: read.subject.wish?.rateCode ?? null,
    delivery_type: read.subject.deliveryType,
    merchant_location_id: read.subject.merchantLocationId ?? null,
    ...read.context,
  }
}

/** A lastmile fulfillment Medusa created; `handed`: the attempt the plugin's own run started, if it is its run. */
function planFulfillment(read: BookingRead, task: PlannedTask, handed?: number): { plan: BookingPlan; row: RowWrite } {
  const name = read.subject.merchantOrderName
  if (task.status === "booked") {
    if (task.fulfillment_id === read.fulfillment_id) {
      return skip({ status: "already_booked" })
    }
    const tracking = task.tracking_id ? `, tracking ${task.tracking_id}` : ""
    const reason = `${name} already has a lastmile delivery (task ${task.task_id ?? ""}${tracking}). The service books one delivery per reference, so a second lastmile fulfillment of it is refused.`
    return { plan: { action: "refuse", code: BOOKING_ERROR_CODES.alreadyBooked, reason }, row: { write: "none" } }
  }
  if (task.status === "cancelled") {
    const reason = `${name} was cancelled: it is never booked again.`
    return { plan: { action: "refuse", code: BOOKING_ERROR_CODES.needsAttention, reason }, row: { write: "none" } }
  }
  // The plugin's own run started this attempt on the row already (under the same lock).
  const ours = handed !== undefined && task.status === "booking" && task.attempts === handed
  const attempts = ours ? handed : task.attempts + 1
  // Only the plugin's own first attempt knows that nothing of ours can exist at the service yet.
  const subject = { ...read.subject, lookupFirst: !(ours && attempts === 1) }
  return {
    plan: { action: "book", task_row_id: task.id, attempts, read, subject },
    row: { write: "start", details: attemptDetailsOf(read), ...(ours ? { continuing: handed } : {}) },
  }
}

/** The plugin's own run for an order's delivery or a replacement: what is left to fulfil, and whether it is booked. */
function planOrderDelivery(
  read: Exclude<Extract<BookingReads, { kind: "order" }>["read"], { skip: unknown }>,
  { task, retry_needs_attention, lock_owner, booked_task_ids = [] }: PlanInput
): { plan: BookingPlan; row: RowWrite } {
  const settled = waitingOrDone(task, retry_needs_attention)
  if (settled) {
    return skip(settled)
  }
  // A booking on a fulfillment that no row records (the process stopped in between, or the row was lost): recorded,
  // never booked again. Without the row's task, one that no other booked row of the order holds.
  const found = read.live.find(
    ({ booking }) =>
      !!booking &&
      (task.task_id ? String(booking.taskId) === task.task_id : !booked_task_ids.includes(String(booking.taskId)))
  )
  if (found?.booking) {
    return skip(
      { status: "already_booked" },
      { write: "booked_from_fulfillment", fulfillment_id: found.id, booking: found.booking }
    )
  }
  // A fulfillment Medusa created and nobody booked (a process stopped inside its workflow): that one is booked.
  const pending = read.live.find((f) => isPendingBooking(f.data))
  if (pending) {
    const existing = read.pending?.id === pending.id ? read.pending.identity : null
    if (existing?.action === "book" && existing.subject.merchantOrderId === task.merchant_order_id) {
      return planFulfillment(existing, task)
    }
    const reason =
      existing?.action === "refuse"
        ? existing.reason
        : `Fulfillment ${pending.id} holds these items and waits for a booking of another delivery: cancel it, then retry.`
    return skip({ status: "needs_attention", reason }, { write: "needs_attention", reason })
  }
  if (!read.items.length) {
    // Without this the row would stay failed (or pending) and the job would read the order every minute.
    return skip({ status: "nothing_to_book" }, { write: "nothing_to_book" })
  }
  const attempts = task.attempts + 1
  const { order_id, shipping_option_id, items } = read
  return {
    plan: {
      action: "fulfil",
      task_row_id: task.id,
      attempts,
      fulfillment: {
        order_id,
        shipping_option_id,
        items,
        additional_data: { lastmile: { lock_owner, attempt: attempts } },
      },
    },
    row: { write: "start", details: {} },
  }
}

function planReturn(
  read: Exclude<Extract<BookingReads, { kind: "return" }>["read"], { skip: unknown }>,
  { task, retry_needs_attention }: PlanInput
): { plan: BookingPlan; row: RowWrite } {
  const settled = waitingOrDone(task, retry_needs_attention)
  if (settled) {
    return skip(settled)
  }
  // The row learnt its task and the fulfillment holds it, but the process stopped before the row was marked.
  if (read.held && task.task_id && String(read.held.taskId) === task.task_id) {
    return skip(
      { status: "already_booked" },
      { write: "booked_from_fulfillment", fulfillment_id: read.fulfillment_id, booking: read.held }
    )
  }
  // An attempt left mid-booking by a stopped process may have posted: never again blindly.
  const interrupted = task.status === "booking" && !retry_needs_attention
  const attempts = task.attempts + 1
  // Returns are not said to be de-duplicated: a later attempt looks the earlier one up, never posts blindly.
  const subject = { ...read.subject, lookupFirst: attempts > 1, mustNotPost: interrupted }
  return {
    plan: { action: "book", task_row_id: task.id, attempts, read, subject },
    row: { write: "start", details: { name: read.subject.merchantOrderName, ...read.context } },
  }
}

/** A task that needs no attempt now: booked already, cancelled, or waiting for the merchant. */
function waitingOrDone(task: PlannedTask, retryNeedsAttention?: boolean): BookingSkip | undefined {
  if (task.status === "booked" || task.status === "cancelled") {
    return { status: task.status === "booked" ? "already_booked" : "cancelled" }
  }
  if (task.status === "needs_attention" && !retryNeedsAttention) {
    return { status: "needs_attention", reason: task.last_error ?? "waiting for the merchant" }
  }
  return undefined
}
