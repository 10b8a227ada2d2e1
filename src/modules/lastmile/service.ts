import { MedusaError, MedusaService, generateEntityId } from "@medusajs/framework/utils"
import { LastmileTask } from "./models/lastmile-task"
import { LastmileWebhookEvent } from "./models/lastmile-webhook-event"
import {
  InvalidPluginOptionsError,
  type LastmilePluginOptions,
  type ResolvedPluginOptions,
  resolvePluginOptions,
} from "../../lib/lastmile/plugin-options"

interface RawSqlManager {
  execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>
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

/**
 * Persisted lastmile tasks and webhook events (generated CRUD:
 * createLastmileTasks, listLastmileWebhookEvents, …) and the plugin's options.
 */
export class LastmileModuleService extends MedusaService({ LastmileTask, LastmileWebhookEvent }) {
  protected readonly pluginOptions_: ResolvedPluginOptions
  protected readonly manager_: RawSqlManager

  constructor(container: Record<string, unknown>, options?: LastmilePluginOptions) {
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
    this.manager_ = container.manager as RawSqlManager
  }

  getPluginOptions(): ResolvedPluginOptions {
    return this.pluginOptions_
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
