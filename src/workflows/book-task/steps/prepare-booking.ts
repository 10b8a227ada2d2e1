/**
 * Under the task's lock, the plan (ARCHITECTURE.md, decision 39): skip, refuse with no attempt, `fulfil` (the plugin's
 * own run creates the fulfillment, whose `fulfillmentCreated` hook books it with this run's lock and attempt) or
 * `book`. The row's attempt starts before the service is called, so a crash leaves a trace the booking job finishes;
 * the compensation settles an attempt still under way for a retry.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import type { BookingSubject } from "../../../lib/booking/book-at-service"
import { BOOKING_ERROR_CODES, type BookingErrorCode, type BookingSkip } from "../../../lib/booking/booking-outcome"
import { type BookingAdditionalData, isPendingBooking } from "../../../lib/contracts/plugin-data"
import {
  type BookingRead,
  type BookingTarget,
  type OrderDeliveryRead,
  readFulfillmentBooking,
  readOrderDelivery,
  readReturnBooking,
} from "../read-booking"
import type { TaskIdentity } from "./identify-task"

export interface PrepareBookingInput {
  target: BookingTarget
  /** With the owner of the task's lock this run holds (handed to the hook's booking of a fulfillment it creates). */
  identity: TaskIdentity
  /** The plugin's own run started this attempt on the row already and hands it over (the hook). */
  attempt?: number
  /** The merchant asked for it: a task waiting for their decision is booked again too. */
  retry_needs_attention?: boolean
}

/** An attempt under way on a task row. */
export type Attempt = { task_row_id: string; attempts: number }

export type BookingPlan =
  | { action: "skip"; outcome: BookingSkip }
  | { action: "refuse"; code: BookingErrorCode; reason: string }
  | ({
      action: "fulfil"
      fulfillment: Pick<Exclude<OrderDeliveryRead, { skip: unknown }>, "order_id" | "shipping_option_id" | "items"> & {
        additional_data: { lastmile: BookingAdditionalData }
      }
    } & Attempt)
  | ({ action: "book"; read: BookingRead; subject: BookingSubject } & Attempt)

export const prepareBookingStepId = "lastmile-prepare-booking"

export const prepareBookingStep = createStep(
  prepareBookingStepId,
  async (input: PrepareBookingInput, { container }) => {
    const plan = await planBooking(container, input)
    const attempt = "task_row_id" in plan ? { task_row_id: plan.task_row_id, attempts: plan.attempts } : null
    return new StepResponse<BookingPlan, Attempt | null>(plan, attempt)
  },
  // The run failed before its outcome was recorded: the attempt is retried after the backoff.
  async (attempt, { container }) => {
    if (attempt) {
      await TaskRowsService.of(container).settleInterruptedAttempt(attempt)
    }
  }
)

async function planBooking(container: MedusaContainer, input: PrepareBookingInput): Promise<BookingPlan> {
  const tasks = TaskRowsService.of(container)
  const { identity, target } = input
  if (identity.action !== "go") {
    return identity.action === "skip"
      ? { action: "skip", outcome: identity.outcome }
      : { action: "refuse", code: BOOKING_ERROR_CODES.needsAttention, reason: identity.reason }
  }
  if (identity.kind === "fulfillment") {
    return planFulfillment(tasks, identity.delivery, input.attempt)
  }
  return target.kind === "order"
    ? planOrderDelivery(container, tasks, target, input)
    : planReturn(container, tasks, identity.reference, input)
}

/**
 * A lastmile fulfillment Medusa created (the dashboard, an exchange, a host app, or the plugin's own run); `handed`:
 * the attempt the plugin's own run started and hands over, if it is its run.
 */
async function planFulfillment(tasks: TaskRowsService, read: BookingRead, handed?: number): Promise<BookingPlan> {
  const details = {
    name: read.subject.merchantOrderName,
    rate_code: read.subject.wish?.rateCode ?? null,
    delivery_type: read.subject.deliveryType,
    merchant_location_id: read.subject.merchantLocationId ?? null,
    ...read.context,
  }
  const task = await tasks.findOrCreate({
    kind: "delivery",
    origin: read.origin,
    order_id: read.order_id,
    merchant_order_id: read.subject.merchantOrderId,
    ...details,
  })
  if (task.status === "booked") {
    return task.fulfillment_id === read.fulfillment_id
      ? { action: "skip", outcome: { status: "already_booked" } }
      : {
          action: "refuse",
          code: BOOKING_ERROR_CODES.alreadyBooked,
          reason: `${read.subject.merchantOrderName} already has a lastmile delivery (task ${task.task_id ?? ""}${task.tracking_id ? `, tracking ${task.tracking_id}` : ""}). The service books one delivery per reference, so a second lastmile fulfillment of it is refused.`,
        }
  }
  if (task.status === "cancelled") {
    return {
      action: "refuse",
      code: BOOKING_ERROR_CODES.needsAttention,
      reason: `${read.subject.merchantOrderName} was cancelled: it is never booked again.`,
    }
  }
  // The plugin's own run started this attempt on the row already (under the same lock).
  const ours = handed !== undefined && task.status === "booking" && task.attempts === handed
  const attempts = await tasks.startAttempt(task, details, ours ? handed : undefined)
  return {
    action: "book",
    task_row_id: task.id,
    attempts,
    read,
    // Only the plugin's own first attempt knows that nothing of ours can exist at the service yet.
    subject: { ...read.subject, lookupFirst: !(ours && attempts === 1) },
  }
}

/** The plugin's own run for an order's delivery or a replacement: what is left to fulfil, and whether it is booked. */
async function planOrderDelivery(
  container: MedusaContainer,
  tasks: TaskRowsService,
  target: Extract<BookingTarget, { kind: "order" }>,
  input: PrepareBookingInput
): Promise<BookingPlan> {
  const read = await readOrderDelivery(container, target)
  if ("skip" in read) {
    return { action: "skip", outcome: { status: read.skip } }
  }
  const task = await tasks.findOrCreate({
    kind: "delivery",
    origin: read.origin,
    order_id: read.order_id,
    merchant_order_id: read.merchantOrderId,
    name: read.merchantOrderName,
  })
  const settled = waitingOrDone(task, input)
  if (settled) {
    return { action: "skip", outcome: settled }
  }
  // A booking on a fulfillment that no row records (the process stopped in between, or the row was lost): recorded,
  // never booked again. Without the row's task, one that no other booked row of the order holds.
  const booked = read.live.flatMap(({ id, booking }) => (booking ? [{ id, booking }] : []))
  const recorded =
    booked.length && !task.task_id
      ? await tasks.list({ order_id: read.order_id, status: "booked" }, { select: ["task_id"] })
      : []
  const found = booked.find(({ booking }) =>
    task.task_id ? String(booking.taskId) === task.task_id : !recorded.some((t) => t.task_id === String(booking.taskId))
  )
  if (found) {
    await tasks.recordBookedFromFulfillment(task, found.id, found.booking)
    return { action: "skip", outcome: { status: "already_booked" } }
  }
  // A fulfillment Medusa created and nobody booked (a process stopped inside its workflow): that one is booked.
  const pending = read.live.find((f) => isPendingBooking(f.data))
  if (pending) {
    const existing = await readFulfillmentBooking(container, pending.id)
    if (existing.action === "book" && existing.subject.merchantOrderId === task.merchant_order_id) {
      return planFulfillment(tasks, existing)
    }
    const reason =
      existing.action === "refuse"
        ? existing.reason
        : `Fulfillment ${pending.id} holds these items and waits for a booking of another delivery: cancel it, then retry.`
    await tasks.recordFailure(task, { attempts: task.attempts, message: reason, needsAttention: true })
    return { action: "skip", outcome: { status: "needs_attention", reason } }
  }
  if (!read.items.length) {
    // Without this the row would stay failed (or pending) and the job would read the order every minute.
    await tasks.recordNothingToBook(task)
    return { action: "skip", outcome: { status: "nothing_to_book" } }
  }
  const attempts = await tasks.startAttempt(task)
  return {
    action: "fulfil",
    task_row_id: task.id,
    attempts,
    fulfillment: {
      order_id: read.order_id,
      shipping_option_id: read.shipping_option_id,
      items: read.items,
      additional_data: { lastmile: { lock_owner: input.identity.lock_owner, attempt: attempts } },
    },
  }
}

async function planReturn(
  container: MedusaContainer,
  tasks: TaskRowsService,
  returnId: string,
  input: PrepareBookingInput
): Promise<BookingPlan> {
  const read = await readReturnBooking(container, returnId)
  if ("skip" in read) {
    return { action: "skip", outcome: { status: read.skip } }
  }
  if (read.cancelled) {
    // A cancelled return is never booked, and its row (if any) is closed so no pass reads it again.
    await tasks.closeUnbooked(
      { merchant_order_id: read.subject.merchantOrderId },
      "Cancelled in Medusa before it was booked: it is never booked."
    )
    return { action: "skip", outcome: { status: "cancelled" } }
  }
  const task = await tasks.findOrCreate({
    kind: "return",
    origin: "return",
    order_id: read.order_id,
    return_id: read.subject.merchantOrderId,
    fulfillment_id: read.fulfillment_id,
    merchant_order_id: read.subject.merchantOrderId,
  })
  const settled = waitingOrDone(task, input)
  if (settled) {
    return { action: "skip", outcome: settled }
  }
  // The row learnt its task and the fulfillment holds it, but the process stopped before the row was marked.
  if (read.held && task.task_id && String(read.held.taskId) === task.task_id) {
    await tasks.recordBookedFromFulfillment(task, read.fulfillment_id, read.held)
    return { action: "skip", outcome: { status: "already_booked" } }
  }
  // An attempt left mid-booking by a stopped process may have posted: never again blindly.
  const interrupted = task.status === "booking" && !input.retry_needs_attention
  const attempts = await tasks.startAttempt(task, { name: read.subject.merchantOrderName, ...read.context })
  return {
    action: "book",
    task_row_id: task.id,
    attempts,
    read,
    // Returns are not said to be de-duplicated: a later attempt looks the earlier one up, never posts blindly.
    subject: { ...read.subject, lookupFirst: attempts > 1, mustNotPost: interrupted },
  }
}

/** A task that needs no attempt now: booked already, cancelled, or waiting for the merchant. */
function waitingOrDone(task: TaskRow, input: PrepareBookingInput): BookingSkip | undefined {
  if (task.status === "booked" || task.status === "cancelled") {
    return { status: task.status === "booked" ? "already_booked" : "cancelled" }
  }
  if (task.status === "needs_attention" && !input.retry_needs_attention) {
    return { status: "needs_attention", reason: task.last_error ?? "waiting for the merchant" }
  }
  return undefined
}
