/**
 * The webhook events' rows: the one-statement record of an authenticated webhook (ARCHITECTURE.md, decision 14), the
 * redacted record of a refused one, and the reads and writes of the tracking sync, over the model's own service.
 */
import type { DAL, FindConfig, InferTypeOf, ModulesSdkTypes } from "@medusajs/framework/types"
import { generateEntityId } from "@medusajs/framework/utils"
import type { LastmileTask } from "../models/lastmile-task"
import type { LastmileWebhookEvent } from "../models/lastmile-webhook-event"
import { type ContainerLike, LASTMILE_MODULE } from "../module-name"

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

type LastmileWebhookEventRow = InferTypeOf<typeof LastmileWebhookEvent>

export type WebhookEventUpdate = { id: string } & Partial<Omit<LastmileWebhookEventRow, "id">>

type InjectedDependencies = {
  lastmileWebhookEventService: ModulesSdkTypes.IMedusaInternalService<typeof LastmileWebhookEvent>
  lastmileTaskService: ModulesSdkTypes.IMedusaInternalService<typeof LastmileTask>
  baseRepository: DAL.RepositoryService
  manager: { execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> }
}

export class WebhookEventsService {
  /** The module's webhook events, from the app's container. */
  static of(container: ContainerLike): WebhookEventsService {
    return container.resolve<{ webhookEvents: WebhookEventsService }>(LASTMILE_MODULE).webhookEvents
  }

  protected readonly events_: InjectedDependencies["lastmileWebhookEventService"]
  protected readonly tasks_: InjectedDependencies["lastmileTaskService"]
  protected readonly baseRepository_: DAL.RepositoryService
  protected readonly manager_: InjectedDependencies["manager"]

  constructor(dependencies: InjectedDependencies) {
    this.events_ = dependencies.lastmileWebhookEventService
    this.tasks_ = dependencies.lastmileTaskService
    this.baseRepository_ = dependencies.baseRepository
    this.manager_ = dependencies.manager
  }

  async list(filters: Record<string, unknown>, config: FindConfig<LastmileWebhookEventRow> = {}) {
    return this.baseRepository_.serialize<LastmileWebhookEventRow[]>(await this.events_.list(filters, config))
  }

  async update(data: WebhookEventUpdate[]): Promise<void> {
    await this.events_.update(data)
  }

  /**
   * Keeps a webhook whose body was refused (redacted: its size and digest, never its content), with the task it names
   * when it names one of ours, so the merchant sees it in the admin.
   */
  async recordRefused(event: {
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
      ? await this.tasks_.list({ $or: names }, { select: ["id"], take: 1, order: { created_at: "DESC" } })
      : []
    const created = await this.events_.create({
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
   * Stores a webhook in one statement: finds the task it names, and records the event as received, ignored (no such
   * task) or, when the service's event id was already recorded, duplicate. It sits on the webhook's hot path, where
   * the model's ORM round trips cost several times more.
   */
  async record(event: IncomingWebhook): Promise<RecordedWebhook> {
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
    const [earlier] = await this.events_.list(
      { first_of_event: event.eventKey },
      { select: ["lastmile_task_id"], take: 1 }
    )
    const duplicate = await this.events_.create({
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
