import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { MedusaError, MedusaService, Modules, generateEntityId } from "@medusajs/framework/utils"
import { LastmileTask } from "./models/lastmile-task"
import { LastmileWebhookEvent } from "./models/lastmile-webhook-event"
import { LastmileOfferCount } from "./models/lastmile-offer-count"
import { OFFERS_COUNTED_EVENT, OfferCounts } from "./offer-counts"
import { readInsightTasks } from "./insight-tasks"
import type { InsightTaskRow } from "../../lib/insights/task-facts"
import type { LastmileTaskRow } from "./types"
import {
  InvalidPluginOptionsError,
  type LastmilePluginOptions,
  type ResolvedPluginOptions,
  resolvePluginOptions,
} from "../../lib/options/plugin-options"
import {
  InvalidProviderOptionsError,
  type ResolvedProviderOptions,
  providerOptionsIn,
  resolveProviderOptions,
} from "../../lib/options/provider-options"
import {
  LastmileClient,
  type ServiceTextNotice,
  onServiceTextCleaned,
  onStoreListChanged,
} from "../../lib/service-client"
import { ThrottledLog } from "../../lib/support/throttled-log"
import { NOTHING_TO_BOOK, type ServiceBookingOutcome, settlementOf } from "../../lib/booking/booking-outcome"
import type { QuotedRate } from "../../lib/contracts/quoted-rate"
import type { LastmileFulfillmentData } from "../../lib/contracts/plugin-data"
import { withHistoryEntry } from "../../lib/tracking/task-history"
import { RunCoalescer } from "../../lib/support/run-coalescer"
import type { SyncOutcome } from "../../lib/tracking/task-sync"
import { type BellData, WebhookBells } from "../../lib/tracking/webhook-bells"
import { ExpiringValue } from "../../lib/support/expiring-value"
import type { ServiceFulfilmentLocation } from "../../lib/contracts/service-shapes"
import { missingChannelMessage, notificationChannelsIn } from "../../lib/notifications/notification-channels"
import { RatesAnswers } from "../../lib/checkout/rates-answers"
import { CheckoutCatalogueCache } from "../../lib/checkout/medusa/checkout-catalogue"
import type { CartRatesState } from "../../lib/checkout/medusa/cart-rates"

interface RawSqlManager {
  execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>
}

type InjectedDependencies = {
  logger: Logger
  configModule: { modules?: Record<string, unknown>; admin?: { backendUrl?: string; path?: string } }
  [Modules.EVENT_BUS]?: IEventBusModuleService
  manager: RawSqlManager
}

export interface IncomingWebhook {
  eventKey: string
  taskId?: string
  trackingId?: string
  merchantOrderId?: string
  taskReference: string | null
  payload: Record<string, unknown>
}

export interface RecordedWebhook {
  id: string
  status: "received" | "ignored" | "duplicate"
  lastmile_task_id: string | null
}

/** The event that has a worker re-read a task after a webhook. */
export const WEBHOOK_RECEIVED_EVENT = "lastmile.webhook.received"

export type TaskRow = LastmileTaskRow

export interface NewTask {
  kind: "delivery" | "return"
  origin: "order" | "exchange" | "claim" | "part" | "return"
  order_id: string
  /** The reference the service knows the task by (see the model). */
  merchant_order_id: string
  name?: string | null
  return_id?: string | null
  fulfillment_id?: string | null
  rate_code?: string | null
  delivery_type?: string | null
  merchant_location_id?: string | null
}

/**
 * What an attempt is booking, written on the row as it starts: the admin
 * shows it while the attempt runs, and insights count a task that never
 * books under its mode and store.
 */
export type AttemptDetails = Pick<NewTask, "name" | "rate_code" | "delivery_type" | "merchant_location_id"> & {
  mode?: "delivery" | "collection" | "return"
  shipping_option_id?: string | null
  stock_location_id?: string | null
  placed_at?: string | null
}

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
}

/** Why an attempt that did not complete is retried: the last error a merchant sees until then. */
export const ATTEMPT_INTERRUPTED = "The booking attempt did not complete."

/** Backoff of the retry job: 30 s, 1 min, 2 min, 4 min … capped at 1 hour. */
export function nextAttemptDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1))
}

/**
 * Persisted lastmile tasks and webhook events (generated CRUD:
 * createLastmileTasks, listLastmileWebhookEvents, …), the life of a task row
 * (find or create, attempt, booked, failed), the plugin's options, and the
 * state the plugin keeps in a process: the service client (one connection
 * pool per service, shared with the provider's), the coalescing of tracking
 * syncs and the webhook bells. That state is the container's: it is closed
 * when the app shuts down.
 */
export class LastmileModuleService extends MedusaService({ LastmileTask, LastmileWebhookEvent, LastmileOfferCount }) {
  protected readonly pluginOptions_: ResolvedPluginOptions
  protected readonly manager_: RawSqlManager
  protected readonly logger_: Logger
  protected readonly config_: InjectedDependencies["configModule"]
  private connection_: { client: LastmileClient; options: ResolvedProviderOptions } | null | undefined
  /** Tracking syncs of one task in this process: one running, at most one queued. */
  readonly syncRuns = new RunCoalescer<SyncOutcome>()
  readonly webhookBells: WebhookBells
  /** The rates route's answers, the latest per cart (ARCHITECTURE.md, decisions 18 and 41). */
  readonly ratesAnswers = new RatesAnswers()
  /** What checkout needs of the store that no cart changes, read at most once a minute and again after a change (decision 40). */
  readonly checkoutCatalogue = new CheckoutCatalogueCache(60_000)
  /** The service's locations, for a collection message's opening hours: read at most every 5 minutes. */
  readonly serviceLocations = new ExpiringValue<ServiceFulfilmentLocation[]>(5 * 60_000)
  private notificationChannels_: ReadonlySet<string> | undefined
  /** What the client's parse edge cleaned of the service's answers, told once a minute per kind (service-text.ts). */
  private readonly onServiceText_: (notice: ServiceTextNotice) => void
  /** A store's collection switched at the service (a read hands a list, a change none): answers are priced again. */
  private readonly onStoresChanged_ = (locations?: unknown[]) => (locations ? undefined : this.checkoutChanged())
  /** What checkout offered and shoppers chose, counted and written in batches (ARCHITECTURE.md, decision 50). */
  readonly offerCounts: OfferCounts

  constructor(container: InjectedDependencies, options?: LastmilePluginOptions) {
    // eslint-disable-next-line prefer-rest-params
    super(...arguments)
    try {
      this.pluginOptions_ = resolvePluginOptions(options)
    } catch (error) {
      if (error instanceof InvalidPluginOptionsError) {
        throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
      }
      throw error
    }
    this.manager_ = container.manager
    this.logger_ = container.logger
    this.config_ = container.configModule
    const bus = container[Modules.EVENT_BUS]
    this.webhookBells = new WebhookBells({
      emit: async (data: BellData) => {
        if (!bus) {
          throw new Error("no event bus")
        }
        await bus.emit({ name: WEBHOOK_RECEIVED_EVENT, data })
      },
      logger: this.logger_,
    })
    const warnings = new ThrottledLog(this.logger_, 60_000)
    this.onServiceText_ = (notice) => {
      // The field without its positions: one line per kind of field a minute, however many rates or tasks.
      const field = notice.field.replace(/\.\d+(?=\.|$)/g, "")
      if (notice.kind === "link") {
        warnings.warn(
          `link:${field}`,
          `lastmile: the service sent a ${field} that is ${notice.reason}; it was dropped, so nothing links to it`
        )
      } else {
        warnings.warn(`text:${field}`, `lastmile: the service's ${field} was cleaned before use: ${notice.reason}`)
      }
    }
    // Held by this module for its life; the signals hold them weakly.
    onServiceTextCleaned(this.onServiceText_)
    onStoreListChanged(this.onStoresChanged_)
    this.offerCounts = new OfferCounts({
      manager: this.manager_,
      logger: this.logger_,
      timeZone: this.pluginOptions_.insights.timeZone,
      announce: bus ? (offers) => bus.emit({ name: OFFERS_COUNTED_EVENT, data: { offers } }) : undefined,
    })
  }

  __hooks = {
    // Said once at boot: a channel the plugin sends on with no provider behind it sends nothing.
    onApplicationStart: async (): Promise<void> => {
      const { notifications } = this.pluginOptions_
      if (!notifications.enabled) {
        return
      }
      if (!this.canNotifyOn(notifications.channel)) {
        this.logger_.warn(missingChannelMessage(notifications.channel, "shopper"))
      }
      if (!this.canNotifyOn(notifications.merchantChannel)) {
        this.logger_.warn(missingChannelMessage(notifications.merchantChannel, "merchant"))
      }
    },
    onApplicationShutdown: async (): Promise<void> => {
      this.webhookBells.close()
      this.ratesAnswers.clear()
      await this.offerCounts.close()
      await Promise.allSettled(this.syncRuns.pending())
      await this.connection_?.client.close()
      this.connection_ = undefined
    },
  }

  /** What the rates route and the check of a shopper's choice price a cart with. */
  cartRatesState(): CartRatesState {
    return {
      answers: this.ratesAnswers,
      catalogue: this.checkoutCatalogue,
      quoteTtlMs: (this.connection()?.options.quoteCacheTtlSeconds ?? 0) * 1000,
    }
  }

  /** A change checkout shows (options, locations, the mapping, a store's collection): read the store again. */
  checkoutChanged(): void {
    this.checkoutCatalogue.clear()
    this.ratesAnswers.clear()
  }

  getPluginOptions(): ResolvedPluginOptions {
    return this.pluginOptions_
  }

  /** Whether the app's Notification Module has a provider for the channel (read once from its config). */
  canNotifyOn(channel: string): boolean {
    this.notificationChannels_ ??= notificationChannelsIn(this.config_ ?? {})
    return this.notificationChannels_.has(channel)
  }

  /** The task rows that may count in an insights report of `[from, to)` (decision 51). */
  insightTasks(from: Date, to: Date): Promise<InsightTaskRow[]> {
    return readInsightTasks(this.manager_, from, to)
  }

  /**
   * The backend's public URL as configured: the plugin's `backend_url`, else
   * Medusa's `admin.backendUrl` when it is an absolute http(s) URL (its
   * default, "/", is not). Null when neither says.
   */
  configuredBackendUrl(): { url: string; source: "backend_url" | "admin.backendUrl" } | null {
    if (this.pluginOptions_.backendUrl) {
      return { url: this.pluginOptions_.backendUrl, source: "backend_url" }
    }
    const admin = this.config_?.admin?.backendUrl
    try {
      const url = admin ? new URL(admin) : null
      if (url && (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password) {
        return { url: `${url.origin}${url.pathname}`.replace(/\/+$/, ""), source: "admin.backendUrl" }
      }
    } catch {
      // Not an absolute URL: the request's address is used instead.
    }
    return null
  }

  /**
   * An order's page in the admin, for the merchant's messages: absolute when
   * the backend's URL is configured, else a path on the backend.
   */
  adminOrderUrl(orderId: string): string {
    const path = (this.config_?.admin?.path ?? "/app").replace(/\/+$/, "")
    return `${this.configuredBackendUrl()?.url ?? ""}${path}/orders/${encodeURIComponent(orderId)}`
  }

  /**
   * The service client for code outside the provider (bookings, tracking,
   * admin), built from the provider's own options as the host wrote them in
   * the fulfillment module's config: one source of truth. Null when the
   * provider is not registered. Built on first use: nothing reaches the
   * network at boot.
   */
  connection(): { client: LastmileClient; options: ResolvedProviderOptions } | null {
    if (this.connection_ === undefined) {
      const raw = providerOptionsIn(this.config_ ?? {})
      if (!raw) {
        this.connection_ = null
      } else {
        let options: ResolvedProviderOptions
        try {
          options = resolveProviderOptions(raw)
        } catch (error) {
          // The provider refuses such options at boot; say so here too rather than half-work.
          if (error instanceof InvalidProviderOptionsError) {
            throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
          }
          throw error
        }
        this.connection_ = {
          options,
          client: new LastmileClient({
            apiKey: options.apiKey,
            baseUrl: options.baseUrl,
            locationsPath: options.locationsPath,
            timeouts: {
              quoteBudgetMs: options.quoteBudgetMs,
              bookingMs: options.bookingTimeoutMs,
              lookupMs: options.lookupTimeoutMs,
            },
            logger: this.logger_,
          }),
        }
      }
    }
    return this.connection_
  }

  // ------------------------------------------------------------ a task row's life

  /** The row of a reference, created (status pending) when there is none yet. */
  async findOrCreateTask(fields: NewTask): Promise<TaskRow> {
    const [task] = await this.listLastmileTasks({ merchant_order_id: fields.merchant_order_id })
    return (task ?? (await this.createLastmileTasks({ status: "pending", ...fields }))) as TaskRow
  }

  /**
   * Marks an attempt as under way, with what it books; returns its number.
   * `continuing` names an attempt the caller started on the row already
   * (under the same lock): its details are written, its number kept.
   */
  async startAttempt(
    task: TaskRow,
    { placed_at, ...details }: AttemptDetails = {},
    continuing?: number
  ): Promise<number> {
    const attempts = continuing ?? task.attempts + 1
    await this.updateLastmileTasks({
      id: task.id,
      status: "booking",
      attempts,
      next_attempt_at: null,
      ...details,
      ...(placed_at ? { placed_at: new Date(placed_at) } : {}),
    })
    return attempts
  }

  async recordBooked(task: TaskRow, fulfillmentId: string, { placed_at, ...fields }: BookedFields): Promise<void> {
    await this.updateLastmileTasks({
      id: task.id,
      status: "booked",
      fulfillment_id: fulfillmentId,
      ...fields,
      ...(placed_at ? { placed_at: new Date(placed_at) } : {}),
      booked_at: fields.booked_at ?? new Date(),
      last_error: null,
      next_attempt_at: null,
      status_history: withHistoryEntry(task.status_history, { value: fields.service_status ?? "booked" }),
    })
  }

  /**
   * Records a booking the fulfillment holds but the row never learnt was
   * done (a process stopped between the two writes, or the row was lost).
   */
  async recordBookedFromFulfillment(
    task: TaskRow,
    fulfillmentId: string,
    booking: Pick<LastmileFulfillmentData, "taskId" | "trackingId" | "trackingUrl" | "status">
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

  /**
   * Records a failed attempt: `needs_attention` waits for the merchant;
   * otherwise the task is `failed` and the job retries it after the backoff.
   */
  async recordFailure(
    task: TaskRow,
    { attempts, message, needsAttention }: { attempts: number; message: string; needsAttention: boolean },
    extra: { fulfillment_id?: null } = {}
  ): Promise<Date | null> {
    const nextAttemptAt = needsAttention ? null : new Date(Date.now() + nextAttemptDelayMs(attempts))
    const status = needsAttention ? "needs_attention" : "failed"
    await this.updateLastmileTasks({
      ...extra,
      id: task.id,
      status,
      last_error: message,
      next_attempt_at: nextAttemptAt,
      status_history: withHistoryEntry(task.status_history, { value: status, detail: message }),
    })
    return nextAttemptAt
  }

  /**
   * Nothing is left to book: the merchant fulfilled the items another way.
   * A row only this read created goes; one with attempts behind it waits for
   * the merchant with the reason, instead of being retried every minute.
   */
  async recordNothingToBook(task: TaskRow): Promise<void> {
    if (task.status === "pending" && task.attempts === 0) {
      await this.deleteLastmileTasks(task.id)
      return
    }
    if (task.status === "needs_attention" && task.last_error === NOTHING_TO_BOOK) {
      return
    }
    await this.recordFailure(task, { attempts: task.attempts, message: NOTHING_TO_BOOK, needsAttention: true })
  }

  /**
   * Settles an attempt whose run failed before recording its outcome, only
   * while the row is still that attempt's (a settled row is another step's or
   * another run's outcome). The row says how (lib/booking/booking-outcome.ts):
   * `posted` when the request may have reached the service, so a return then
   * waits for the merchant; items the merchant picked by hand always do; else
   * it is retried after the backoff, its next attempt looking the task up first.
   */
  async settleInterruptedAttempt(
    attempt: { task_row_id: string; attempts: number },
    { posted = false, cause = ATTEMPT_INTERRUPTED }: { posted?: boolean; cause?: string } = {}
  ): Promise<void> {
    const task = await this.retrieveLastmileTask(attempt.task_row_id)
    if (task.status !== "booking" || task.attempts !== attempt.attempts) {
      return
    }
    await this.settle(task, { status: "unknown", reason: cause, posted })
  }

  /**
   * Medusa undid a fulfillment after the task on it was booked (a step after
   * the booking failed in the workflow that created it): the service keeps
   * the task, so the row waits to adopt it, its next attempt looking it up
   * and booking nothing new.
   */
  async recordBookingUndone(booking: { task_row_id: string; fulfillment_id: string }): Promise<void> {
    const task = await this.retrieveLastmileTask(booking.task_row_id)
    if (task.status !== "booked" || task.fulfillment_id !== booking.fulfillment_id) {
      return
    }
    await this.settle(
      task,
      {
        status: "unknown",
        reason: `Medusa undid the fulfillment after the service booked task ${task.task_id}: the next attempt adopts that task instead of booking again.`,
        posted: false,
      },
      { fulfillment_id: null }
    )
  }

  /** A settlement of an outcome that booked nothing, as the row's kind and origin say: why, and the retry's time. */
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
   * Rows never booked (a cancelled order's, a cancelled return's) closed as
   * `cancelled`, so no pass, late event or replacement books them; resolves to
   * the rows as they were, for a compensation to put back (`restoreTaskRow`).
   */
  async closeUnbookedTasks(
    filter: { order_id: string } | { merchant_order_id: string },
    detail: string
  ): Promise<TaskRow[]> {
    const open = await this.listLastmileTasks({
      ...filter,
      status: ["pending", "booking", "failed", "needs_attention"],
    })
    for (const task of open) {
      await this.updateLastmileTasks({
        id: task.id,
        status: "cancelled",
        next_attempt_at: null,
        status_history: withHistoryEntry(task.status_history, { value: "cancelled", source: "medusa", detail }),
      })
    }
    return open
  }

  /**
   * Names what stopped an attempt its compensation could only call
   * interrupted (Medusa refused the fulfillment, say), while the row still
   * says so.
   */
  async noteInterruptionCause(taskRowId: string, cause: string): Promise<void> {
    const task = await this.retrieveLastmileTask(taskRowId)
    if (task.last_error !== ATTEMPT_INTERRUPTED) {
      return
    }
    const history = (task.status_history as { entries?: Record<string, unknown>[] } | null)?.entries ?? []
    const last = history.at(-1)
    const entries =
      last?.detail === ATTEMPT_INTERRUPTED ? [...history.slice(0, -1), { ...last, detail: cause }] : history
    await this.updateLastmileTasks({ id: task.id, last_error: cause, status_history: { entries } })
  }

  /** Puts a task row back as it was before a step changed it: the compensation of the steps that record. */
  async restoreTaskRow(before: TaskRow): Promise<void> {
    await this.updateLastmileTasks({
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
      notice: before.notice,
      cancellation: before.cancellation,
      tracking_state: before.tracking_state,
      quoted_rate: before.quoted_rate,
      mode: before.mode,
      shipping_option_id: before.shipping_option_id,
      stock_location_id: before.stock_location_id,
      placed_at: before.placed_at,
    })
  }

  // ------------------------------------------------------------ webhooks

  /**
   * Keeps a webhook whose body was refused (redacted: its size and digest,
   * never its content), with the task it names when it names one of ours,
   * so the merchant sees it in the admin.
   */
  async recordRefusedWebhook(event: {
    reason: string
    payload: Record<string, unknown>
    taskReference: string | null
    taskId?: string
    trackingId?: string
    merchantOrderId?: string
  }): Promise<{ id: string; lastmile_task_id: string | null }> {
    const names = [
      ...(event.taskId ? [{ task_id: event.taskId }] : []),
      ...(event.trackingId ? [{ tracking_id: event.trackingId }] : []),
      ...(event.merchantOrderId ? [{ merchant_order_id: event.merchantOrderId }] : []),
    ]
    const [task] = names.length
      ? await this.listLastmileTasks({ $or: names }, { select: ["id"], take: 1, order: { created_at: "DESC" } })
      : []
    const created = await this.createLastmileWebhookEvents({
      event_key: `refused:${String(event.payload.sha256 ?? generateEntityId(undefined, "ref"))}`,
      lastmile_task_id: task?.id ?? null,
      task_reference: event.taskReference,
      status: "refused",
      outcome: event.reason,
      payload: event.payload,
      processed_at: new Date(),
    })
    return { id: created.id, lastmile_task_id: created.lastmile_task_id ?? null }
  }

  /**
   * Stores a webhook in one statement: finds the task it names, and records
   * the event as received, ignored (no such task) or, when the service's event
   * id was already recorded, duplicate. It sits on the webhook's hot path,
   * where the generated CRUD's ORM round trips cost several times more.
   */
  async recordWebhookEvent(event: IncomingWebhook): Promise<RecordedWebhook> {
    const hasEventId = event.eventKey.startsWith("id:")
    const payload = JSON.stringify(event.payload)
    const [first] = await this.manager_.execute(
      `WITH task AS (
         SELECT id FROM lastmile_task
         WHERE deleted_at IS NULL AND (task_id = ? OR tracking_id = ? OR merchant_order_id = ?)
         ORDER BY created_at DESC LIMIT 1
       )
       INSERT INTO lastmile_webhook_event
         (id, event_key, first_of_event, lastmile_task_id, task_reference, status, outcome, payload)
       SELECT ?, ?, CASE WHEN task.id IS NOT NULL AND ? THEN ? END, task.id, ?,
              CASE WHEN task.id IS NULL THEN 'ignored' ELSE 'received' END,
              CASE WHEN task.id IS NULL THEN 'names no task of this store' END, ?::jsonb
       FROM (SELECT 1) AS one LEFT JOIN task ON true
       ON CONFLICT (first_of_event) WHERE deleted_at IS NULL DO NOTHING
       RETURNING id, status, lastmile_task_id`,
      [
        event.taskId ?? null,
        event.trackingId ?? null,
        event.merchantOrderId ?? null,
        generateEntityId(undefined, "lmwe"),
        event.eventKey,
        hasEventId,
        event.eventKey,
        event.taskReference,
        payload,
      ]
    )
    if (first) {
      // Raw SQL rows are untyped; the RETURNING clause above gives exactly these columns.
      return first as unknown as RecordedWebhook
    }
    // The event id was recorded before: keep this delivery for the audit, unprocessed.
    const [earlier] = (await this.listLastmileWebhookEvents(
      { first_of_event: event.eventKey },
      { select: ["lastmile_task_id"], take: 1 }
    )) as { lastmile_task_id: string | null }[]
    const duplicate = await this.createLastmileWebhookEvents({
      event_key: event.eventKey,
      lastmile_task_id: earlier?.lastmile_task_id ?? null,
      task_reference: event.taskReference,
      status: "duplicate",
      outcome: "the same event id was received before",
      payload: event.payload,
    })
    return { id: duplicate.id, status: "duplicate", lastmile_task_id: duplicate.lastmile_task_id ?? null }
  }
}

export default LastmileModuleService
