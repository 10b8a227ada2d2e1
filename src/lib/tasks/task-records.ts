/**
 * The task row's life, shared by the delivery and return runners and the
 * fulfillment subscriber: find or create it before calling the service, mark
 * an attempt, record a booking or a failure, and read a booking out of a
 * fulfillment's data.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import type { MedusaAddressLike } from "../lastmile/quote-request"
import { withHistoryEntry } from "../lastmile/task-history"
import { type LastmileFulfillmentData, readFulfillmentData } from "../lastmile/contracts"
import type { LastmileTaskRow } from "../../modules/lastmile/types"

export type TaskRow = LastmileTaskRow

export interface NewTask {
  kind: "delivery" | "return"
  order_id: string
  /** The order id for a delivery, the return id for a return. */
  merchant_order_id: string
  return_id?: string | null
  fulfillment_id?: string | null
  rate_code?: string | null
  delivery_type?: string | null
  merchant_location_id?: string | null
}

/** Backoff of the retry job: 30 s, 1 min, 2 min, 4 min … capped at 1 hour. */
export function nextAttemptDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1))
}

/** The row for a merchantOrderId, created (status pending) when there is none yet. */
export async function findOrCreateTask(tasks: LastmileModuleService, fields: NewTask): Promise<TaskRow> {
  const [task] = await tasks.listLastmileTasks({ merchant_order_id: fields.merchant_order_id })
  return (task ?? (await tasks.createLastmileTasks({ status: "pending", ...fields }))) as TaskRow
}

/** Marks an attempt as under way; returns its number. */
export async function startAttempt(tasks: LastmileModuleService, task: TaskRow): Promise<number> {
  const attempts = task.attempts + 1
  await tasks.updateLastmileTasks({ id: task.id, status: "booking", attempts, next_attempt_at: null })
  return attempts
}

/** What a booking puts on the task row, read from the fulfillment's data. */
export function bookedFields(data: LastmileFulfillmentData) {
  return {
    task_id: String(data.taskId),
    tracking_id: data.trackingId ?? null,
    tracking_url: data.trackingUrl ?? null,
    rate_code: data.rateCode ?? null,
    service_status: data.status ?? null,
    adopted: data.adopted === true,
  }
}

export async function recordBooked(
  tasks: LastmileModuleService,
  task: TaskRow,
  fulfillmentId: string,
  data: LastmileFulfillmentData
): Promise<LastmileFulfillmentData> {
  const fields = bookedFields(data)
  await tasks.updateLastmileTasks({
    id: task.id,
    status: "booked",
    fulfillment_id: fulfillmentId,
    ...fields,
    booked_at: new Date(),
    last_error: null,
    next_attempt_at: null,
    status_history: withHistoryEntry(task.status_history, { value: fields.service_status ?? "booked" }),
  })
  return data
}

/**
 * Records a failed attempt: `needs_attention` waits for the merchant;
 * otherwise the task is `failed` and the job retries it after the backoff.
 */
export async function recordFailure(
  tasks: LastmileModuleService,
  task: TaskRow,
  { attempts, message, needsAttention }: { attempts: number; message: string; needsAttention: boolean }
): Promise<Date | null> {
  const nextAttemptAt = needsAttention ? null : new Date(Date.now() + nextAttemptDelayMs(attempts))
  const status = needsAttention ? "needs_attention" : "failed"
  await tasks.updateLastmileTasks({
    id: task.id,
    status,
    last_error: message,
    next_attempt_at: nextAttemptAt,
    status_history: withHistoryEntry(task.status_history, { value: status, detail: message }),
  })
  return nextAttemptAt
}

/**
 * An attempt whose workflow failed before recording an outcome. The row stays
 * `booking`, noted as interrupted: the booking runner settles it next (by the
 * error's code), and should the process stop first, the retry job's pass for
 * stale bookings does. Only while the row is still that attempt's.
 */
export async function recordAttemptInterrupted(
  tasks: LastmileModuleService,
  attempt: { task_row_id: string; attempts: number }
): Promise<void> {
  const task = await tasks.retrieveLastmileTask(attempt.task_row_id)
  if (task.status !== "booking" || task.attempts !== attempt.attempts) {
    return
  }
  await tasks.updateLastmileTasks({ id: task.id, last_error: "The booking attempt did not complete." })
}

/** Puts a task row back as it was before a step changed it: the compensation of the steps that record. */
export async function restoreTaskRow(tasks: LastmileModuleService, before: TaskRow): Promise<void> {
  await tasks.updateLastmileTasks({
    id: before.id,
    status: before.status,
    attempts: before.attempts,
    fulfillment_id: before.fulfillment_id,
    task_id: before.task_id,
    tracking_id: before.tracking_id,
    tracking_url: before.tracking_url,
    rate_code: before.rate_code,
    service_status: before.service_status,
    adopted: before.adopted,
    booked_at: before.booked_at,
    last_error: before.last_error,
    next_attempt_at: before.next_attempt_at,
    status_history: before.status_history,
  })
}

/** The compensation of a step that started a booking attempt (nothing when it skipped). */
export async function undoAttempt(
  tasks: LastmileModuleService,
  attempt: { task_row_id: string | null; attempts: number } | undefined
): Promise<void> {
  if (attempt?.task_row_id) {
    await recordAttemptInterrupted(tasks, { task_row_id: attempt.task_row_id, attempts: attempt.attempts })
  }
}

/** The fulfillment among these that holds a lastmile booking, with its booking read. */
export function findBookedFulfillment(
  fulfillments: ({ id: string; canceled_at?: unknown; data?: unknown } | null)[] | null | undefined
): { id: string; data: LastmileFulfillmentData } | undefined {
  for (const fulfillment of fulfillments ?? []) {
    const data = !fulfillment || fulfillment.canceled_at ? null : readFulfillmentData(fulfillment.data)
    if (!fulfillment) {
      continue
    }
    if (data) {
      return { id: fulfillment.id, data }
    }
  }
  return undefined
}

export async function stockLocationAddress(
  container: MedusaContainer,
  locationId: string | null | undefined
): Promise<MedusaAddressLike | null> {
  if (!locationId) {
    return null
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "stock_location",
    fields: ["id", "address.*"],
    filters: { id: locationId },
  })
  return (data[0] as { address?: MedusaAddressLike | null } | undefined)?.address ?? null
}
