/**
 * The life of a task row (find or create, attempt, booked, failed, settled, closed, restored) and its reads, over the
 * `lastmile_task` model's own service. How an outcome settles and when it is retried are `lib/booking`'s.
 */
import type { DAL, FindConfig, InferTypeOf, ModulesSdkTypes } from "@medusajs/framework/types"
import { LRUCache } from "lru-cache"
import { withHistoryEntry } from "../../../lib/tracking/task-history"
import { nextAttemptAt } from "../../../lib/booking/backoff"
import {
  ATTEMPT_INTERRUPTED,
  type BookingOutcome,
  NOTHING_TO_BOOK,
  type ServiceBookingOutcome,
  settlementOf,
} from "../../../lib/booking/booking-outcome"
import type { AttemptDetails, RowWrite, TaskToPrepare } from "../../../lib/booking/booking-plan"
import type { QuotedRate } from "../../../lib/contracts/quoted-rate"
import type { CollectionRecord } from "../../../lib/collection/collection-hold"
import type { LastmileTask } from "../models/lastmile-task"
import { type ContainerLike, LASTMILE_MODULE } from "../module-name"

export type TaskRow = InferTypeOf<typeof LastmileTask>

/** A row's columns to change, by its id. */
export type TaskUpdate = { id: string } & Partial<Omit<TaskRow, "id">>

export type { AttemptDetails }

/** What a booking records on its row. */
export interface BookedFields {
  task_id: string
  tracking_id: string | null
  tracking_url: string | null
  rate_code: string | null
  service_status: string | null
  adopted: boolean
  /** The rate's promise and where the task stands in the store (insights, notifications); kept when absent. */
  quoted_rate?: QuotedRate | null
  mode?: "delivery" | "collection" | "return"
  shipping_option_id?: string | null
  stock_location_id?: string | null
  placed_at?: string | Date | null
  booked_at?: Date
  /** Said on the booked entry of the task's history (a note the service refused). */
  detail?: string
  /** A collection's record at its first booking: its code (decision 65). */
  collection?: CollectionRecord
}

type InjectedDependencies = {
  lastmileTaskService: ModulesSdkTypes.IMedusaInternalService<typeof LastmileTask>
  baseRepository: DAL.RepositoryService
}

type Filters = Record<string, unknown>

export class TaskRowsService {
  /** The module's task rows, from the app's container. */
  static of(container: ContainerLike): TaskRowsService {
    return container.resolve<{ tasks: TaskRowsService }>(LASTMILE_MODULE).tasks
  }

  /**
   * What a booking inside a fulfillment came to, handed to the plugin's own run that created the fulfillment (by that
   * run's lock owner), which learns it as data rather than by reading the row again. Bounded: a run that never takes
   * its outcome (a host app's, failing) leaves at most this many behind.
   */
  private readonly handed_ = new LRUCache<string, BookingOutcome>({ max: 1000 })
  protected readonly rows_: InjectedDependencies["lastmileTaskService"]
  protected readonly baseRepository_: DAL.RepositoryService

  constructor({ lastmileTaskService, baseRepository }: InjectedDependencies) {
    this.rows_ = lastmileTaskService
    this.baseRepository_ = baseRepository
  }

  // ------------------------------------------------------------ reads and writes, serialised as the module's CRUD is

  async list(filters: Filters, config: FindConfig<TaskRow> = {}): Promise<TaskRow[]> {
    return this.baseRepository_.serialize<TaskRow[]>(await this.rows_.list(filters, config))
  }

  async retrieve(id: string): Promise<TaskRow> {
    return this.baseRepository_.serialize<TaskRow>(await this.rows_.retrieve(id))
  }

  async update(data: TaskUpdate | TaskUpdate[]): Promise<void> {
    await this.rows_.update(data)
  }

  /** Whether the order's own delivery (the row keyed by the order id) is booked. */
  async orderDeliveryBooked(orderId: string): Promise<boolean> {
    const [row] = await this.list({ merchant_order_id: orderId }, { select: ["status"] })
    return row?.status === "booked"
  }

  handOutcome(lockOwner: string, outcome: BookingOutcome): void {
    this.handed_.set(lockOwner, outcome)
  }

  takeHandedOutcome(lockOwner: string): BookingOutcome | undefined {
    const outcome = this.handed_.get(lockOwner)
    this.handed_.delete(lockOwner)
    return outcome
  }

  // ------------------------------------------------------------ a task row's life

  /** The row of a reference, created (status pending) when there is none yet. */
  async findOrCreate(fields: TaskToPrepare): Promise<TaskRow> {
    const [task] = await this.list({ merchant_order_id: fields.merchant_order_id })
    return task ?? this.baseRepository_.serialize<TaskRow>(await this.rows_.create({ status: "pending", ...fields }))
  }

  /**
   * Marks an attempt as under way, with what it books; returns its number. `continuing` names an attempt the caller
   * started on the row already (under the same lock): its details are written, its number kept.
   */
  async startAttempt(task: TaskRow, { placed_at, ...details }: AttemptDetails = {}, continuing?: number) {
    const attempts = continuing ?? task.attempts + 1
    await this.update({
      id: task.id,
      status: "booking",
      attempts,
      next_attempt_at: null,
      ...details,
      ...(placed_at ? { placed_at: new Date(placed_at) } : {}),
    })
    return attempts
  }

  async recordBooked(
    task: TaskRow,
    fulfillmentId: string,
    { placed_at, detail, ...fields }: BookedFields
  ): Promise<void> {
    await this.update({
      id: task.id,
      status: "booked",
      fulfillment_id: fulfillmentId,
      ...fields,
      ...(placed_at ? { placed_at: new Date(placed_at) } : {}),
      booked_at: fields.booked_at ?? new Date(),
      last_error: null,
      next_attempt_at: null,
      status_history: withHistoryEntry(task.status_history, { value: fields.service_status ?? "booked", detail }),
    })
  }

  /** Records a booking the fulfillment holds but the row never learnt was done (a process stopped in between). */
  async recordBookedFromFulfillment(
    task: TaskRow,
    fulfillmentId: string,
    booking: Extract<RowWrite, { write: "booked_from_fulfillment" }>["booking"]
  ): Promise<void> {
    await this.recordBooked(task, fulfillmentId, {
      task_id: String(booking.taskId),
      tracking_id: booking.trackingId ?? null,
      tracking_url: booking.trackingUrl ?? null,
      rate_code: task.rate_code,
      service_status: booking.status ?? null,
      adopted: task.adopted,
    })
  }

  /** A failed attempt: `needs_attention` waits for the merchant; `failed` is retried after the backoff (its time). */
  async recordFailure(
    task: TaskRow,
    { attempts, message, needsAttention }: { attempts: number; message: string; needsAttention: boolean },
    extra: { fulfillment_id?: null } = {}
  ): Promise<Date | null> {
    const next = needsAttention ? null : nextAttemptAt(attempts)
    const status = needsAttention ? "needs_attention" : "failed"
    await this.update({
      ...extra,
      id: task.id,
      status,
      last_error: message,
      next_attempt_at: next,
      status_history: withHistoryEntry(task.status_history, { value: status, detail: message }),
    })
    return next
  }

  /**
   * Nothing is left to book (the merchant fulfilled the items another way): a row only this read created goes; one
   * with attempts behind it waits for the merchant with the reason, instead of being retried every minute.
   */
  async recordNothingToBook(task: TaskRow): Promise<void> {
    if (task.status === "pending" && task.attempts === 0) {
      await this.rows_.delete(task.id)
      return
    }
    if (task.status === "needs_attention" && task.last_error === NOTHING_TO_BOOK) {
      return
    }
    await this.recordFailure(task, { attempts: task.attempts, message: NOTHING_TO_BOOK, needsAttention: true })
  }

  /** An outcome that booked nothing, settled as the row's kind and origin say: why, and the retry's time. */
  async settle(
    task: TaskRow,
    outcome: Exclude<ServiceBookingOutcome, { status: "booked" }>,
    extra: { fulfillment_id?: null } = {}
  ): Promise<{ reason: string; next: Date | null }> {
    const { reason, status } = settlementOf(outcome, { direction: task.kind, retryable: task.origin !== "part" })
    const needsAttention = status === "needs_attention"
    return {
      reason,
      next: await this.recordFailure(task, { attempts: task.attempts, message: reason, needsAttention }, extra),
    }
  }

  /**
   * Settles an attempt whose run failed before recording its outcome, only while the row is still that attempt's:
   * `posted` when the request may have reached the service (a return then waits for the merchant).
   */
  async settleInterruptedAttempt(
    attempt: { task_row_id: string; attempts: number },
    { posted = false, cause = ATTEMPT_INTERRUPTED }: { posted?: boolean; cause?: string } = {}
  ): Promise<void> {
    const task = await this.retrieve(attempt.task_row_id)
    if (task.status === "booking" && task.attempts === attempt.attempts) {
      await this.settle(task, { status: "unknown", reason: cause, posted })
    }
  }

  /**
   * Medusa undid a fulfillment after the task on it was booked: the service keeps the task, so the row waits to adopt
   * it, its next attempt looking it up and booking nothing new.
   */
  async recordBookingUndone(booking: { task_row_id: string; fulfillment_id: string }): Promise<void> {
    const task = await this.retrieve(booking.task_row_id)
    if (task.status !== "booked" || task.fulfillment_id !== booking.fulfillment_id) {
      return
    }
    const reason = `Medusa undid the fulfillment after the service booked task ${task.task_id}: the next attempt adopts that task instead of booking again.`
    await this.settle(task, { status: "unknown", reason, posted: false }, { fulfillment_id: null })
  }

  /**
   * Rows never booked (a cancelled order's, a cancelled return's) closed as `cancelled`, so nothing books them later;
   * resolves to the rows as they were, for a compensation to put back (`restore`).
   */
  async closeUnbooked(filter: { order_id: string } | { merchant_order_id: string }, detail: string) {
    const open = await this.list({ ...filter, status: ["pending", "booking", "failed", "needs_attention"] })
    for (const task of open) {
      await this.update({
        id: task.id,
        status: "cancelled",
        next_attempt_at: null,
        status_history: withHistoryEntry(task.status_history, { value: "cancelled", source: "medusa", detail }),
      })
    }
    return open
  }

  /** Names what stopped an attempt its compensation could only call interrupted, while the row still says so. */
  async noteInterruptionCause(taskRowId: string, cause: string): Promise<void> {
    const task = await this.retrieve(taskRowId)
    if (task.last_error !== ATTEMPT_INTERRUPTED) {
      return
    }
    const history = (task.status_history as { entries?: Record<string, unknown>[] } | null)?.entries ?? []
    const last = history.at(-1)
    const entries =
      last?.detail === ATTEMPT_INTERRUPTED ? [...history.slice(0, -1), { ...last, detail: cause }] : history
    await this.update({ id: task.id, last_error: cause, status_history: { entries } })
  }

  /** Puts a row back as it was before a step changed it: the compensation of the steps that record. */
  async restore(before: TaskRow): Promise<void> {
    const { id, status, attempts, fulfillment_id, task_id, tracking_id, tracking_url, rate_code } = before
    const { service_status, adopted, booked_at, last_error, next_attempt_at, status_history, notice } = before
    const { cancellation, tracking_state, quoted_rate, mode, shipping_option_id, stock_location_id } = before
    await this.update({
      ...{ id, status, attempts, fulfillment_id, task_id, tracking_id, tracking_url, rate_code, service_status },
      ...{ adopted, booked_at, last_error, next_attempt_at, status_history, notice, cancellation, tracking_state },
      ...{ quoted_rate, mode, shipping_option_id, stock_location_id, placed_at: before.placed_at },
      collection: before.collection,
    })
  }
}
