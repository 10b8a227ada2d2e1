/**
 * Sends a task's due messages through Medusa's Notification Module and
 * records them on the task row (ARCHITECTURE.md, decisions 45 and 46). What
 * is due is worked out from the row alone (lib/notifications), under the
 * task's tracking lock, so two runs (two instances, a replayed webhook, the
 * poll racing a webhook) never send one message twice nor an older step
 * after a newer one. Each message carries `idempotency_key` =
 * `lastmile:<task row>:<step>`, which Medusa de-duplicates too.
 *
 * It never fails its workflow: a provider that throws, a channel with no
 * provider or an order that cannot be read leaves the tracking and the
 * booking as they are; a failed send is recorded on the row (and in the
 * task's history, which the admin shows) and retried by the notification
 * pass, at most MAX_SEND_ATTEMPTS times. Nothing to compensate: a message
 * sent stays sent, and its record stays with it.
 *
 * Its input is only the task (its row id, or its reference at the service):
 * so it fits at the end of any workflow that changes a task.
 */
import type { CreateNotificationDTO, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import { errorMessage } from "../../../lib/support/error-message"
import { withHistoryEntry } from "../../../lib/tracking/task-history"
import { taskTrackingLockKey } from "../../../lib/tracking/task-sync"
import { type DueMessage, planNotifications, taskModeOf } from "../../../lib/notifications/due-notifications"
import { notificationData } from "../../../lib/notifications/notification-data"
import {
  MAX_SEND_ATTEMPTS,
  type NotificationRecord,
  readNotificationRecord,
  withFailure,
  withSent,
  withSkipped,
} from "../../../lib/notifications/notification-record"
import { renderNotification, withTitle } from "../../../lib/notifications/render-notification"
import { serverTimeZone } from "../../../lib/notifications/local-time"
import type { ResolvedNotificationOptions } from "../../../lib/notifications/notification-options"
import { readNotificationFacts } from "../read-facts"

export interface SendTaskNotificationsInput {
  /** The task's row id; or else `merchant_order_id`. */
  task_row_id?: string
  /** The task's reference at the service (the booking failure's workflow knows only that). */
  merchant_order_id?: string
  /** The caller holds the task's tracking lock (the tracking sync); otherwise the step takes it. */
  lock_held?: boolean
  /** The notification pass's clock, ISO 8601 (tests move it); now when absent. */
  now?: string
}

export interface SentTaskNotifications {
  /** The keys of the messages sent, failed or skipped by this run. */
  sent: string[]
  failed: string[]
  skipped: string[]
  /** Why nothing was looked at, when nothing was. */
  not_run?: string
}

export const sendTaskNotificationsStepId = "lastmile-send-task-notifications"

/** How long a run waits for the task's tracking lock: whoever holds it is a sync, which sends what is due itself. */
const LOCK_WAIT_SECONDS = 2
/** When the pass looks again at a task whose lock was busy. */
const BUSY_RETRY_MS = 60_000

const NOTHING: SentTaskNotifications = { sent: [], failed: [], skipped: [] }

/**
 * What the step uses of the Notification Module. Its service also has the
 * generated list by `idempotency_key` and delete, which 2.21's interface
 * leaves out: Medusa 2.21 re-sends a key whose row failed, but then updates a
 * row id it never created, so the call throws after the provider sent the
 * message. A retry therefore removes the failed row first and creates the
 * message again under the same key.
 */
interface NotificationCalls {
  createNotifications(data: CreateNotificationDTO): Promise<{ id: string } | undefined>
  listNotifications(
    filters: { idempotency_key: string },
    config: { select: string[] }
  ): Promise<{ id: string; status: "pending" | "success" | "failure" }[]>
  deleteNotifications(ids: string[]): Promise<void>
}

export const sendTaskNotificationsStep = createStep(
  sendTaskNotificationsStepId,
  async (input: SendTaskNotificationsInput, { container }) => {
    return new StepResponse(await sendTaskNotifications(container, input))
  }
)

/** The step's work, for the step and the pass: never throws. */
export async function sendTaskNotifications(
  container: MedusaContainer,
  input: SendTaskNotificationsInput
): Promise<SentTaskNotifications> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const name = input.task_row_id ?? input.merchant_order_id ?? "(none)"
  try {
    const tasks = TaskRowsService.of(container)
    const settings = PluginSettingsService.of(container)
    const options = settings.options.notifications
    if (!options.enabled) {
      return { ...NOTHING, not_run: "notifications are off" }
    }
    const id = await taskRowId(tasks, input)
    if (!id) {
      return { ...NOTHING, not_run: `no task ${name}` }
    }
    const now = input.now ? new Date(input.now) : new Date()
    const run = () => notify(container, tasks, settings, id, now)
    if (input.lock_held) {
      return await run()
    }
    let locked = false
    try {
      return await container.resolve(Modules.LOCKING).execute(
        taskTrackingLockKey(id),
        () => {
          locked = true
          return run()
        },
        { timeout: LOCK_WAIT_SECONDS }
      )
    } catch (error) {
      if (locked) {
        throw error
      }
      // A sync holds the task: it sends what is due itself; the pass looks again in case it read the row first.
      await tasks.update({ id, notify_at: new Date(now.getTime() + BUSY_RETRY_MS) })
      return { ...NOTHING, not_run: "the task's tracking lock was busy; the notification pass looks again" }
    }
  } catch (error) {
    logger.warn(
      `lastmile: messages of task ${name} not sent now (the notification pass retries): ${errorMessage(error)}`
    )
    return { ...NOTHING, not_run: errorMessage(error) }
  }
}

async function taskRowId(tasks: TaskRowsService, input: SendTaskNotificationsInput): Promise<string | null> {
  if (input.task_row_id) {
    return input.task_row_id
  }
  if (!input.merchant_order_id) {
    return null
  }
  const [row] = await tasks.list({ merchant_order_id: input.merchant_order_id }, { select: ["id"] })
  return row?.id ?? null
}

async function notify(
  container: MedusaContainer,
  tasks: TaskRowsService,
  settings: PluginSettingsService,
  id: string,
  now: Date
): Promise<SentTaskNotifications> {
  const options = settings.options.notifications
  const row = await tasks.retrieve(id)
  const mode = taskModeOf(row)
  const task = { ...row, mode }
  let record = readNotificationRecord(row.notifications)
  const plan = planNotifications(task, record, options, now)
  const outcome: SentTaskNotifications = { sent: [], failed: [], skipped: [] }
  let history = row.status_history
  for (const stale of plan.stale) {
    record = withSkipped(record, stale.key, "reached too long before it could be sent", now)
    outcome.skipped.push(stale.key)
  }
  for (const key of plan.superseded) {
    record = withSkipped(record, key, "the task moved on before it could be sent", now)
    outcome.skipped.push(key)
  }
  // A channel nobody handles sends nothing (the boot log said so); its messages wait for a provider.
  const due = plan.due.filter((m) => settings.canNotifyOn(channelOf(m, options)))
  if (due.length) {
    const facts = await readNotificationFacts(
      container,
      row,
      mode,
      due.map((m) => m.event)
    ).catch((error: unknown) => error as Error)
    const notifications = container.resolve<NotificationCalls>(Modules.NOTIFICATION)
    for (const message of due) {
      const channel = channelOf(message, options)
      const template = options.templates[message.event]
      if (facts instanceof Error) {
        record = withFailure(record, message.key, `the order could not be read: ${errorMessage(facts)}`, now)
        outcome.failed.push(message.key)
        continue
      }
      const to = message.audience === "shopper" ? facts.order.email?.trim() : ""
      if (to === undefined || to === null || (message.audience === "shopper" && !to)) {
        record = withSkipped(record, message.key, "the order has no email", now)
        outcome.skipped.push(message.key)
        continue
      }
      const clock = {
        timeZone: options.timeZone ?? facts.store?.hours?.time_zone ?? serverTimeZone(),
        locale: options.locale,
        now,
      }
      const data = withTitle(notificationData(facts, message, clock, options.reminderAfterMs))
      const idempotencyKey = `lastmile:${row.id}:${message.key}`
      try {
        const [earlier] = await notifications.listNotifications(
          { idempotency_key: idempotencyKey },
          { select: ["id", "status"] }
        )
        if (earlier?.status === "failure") {
          await notifications.deleteNotifications([earlier.id])
        }
        // A row that did not fail was sent (or is being sent) by a run that lost its record: never twice.
        const created =
          earlier && earlier.status !== "failure"
            ? earlier
            : await notifications.createNotifications({
                to,
                channel,
                template,
                data,
                content: options.sendContent ? renderNotification(data) : null,
                trigger_type: `lastmile.${message.event}`,
                resource_type: "order",
                resource_id: facts.order.id,
                idempotency_key: idempotencyKey,
              })
        record = withSent(record, message.key, {
          at: now.toISOString(),
          channel,
          template,
          ...(created?.id ? { notification_id: created.id } : {}),
        })
        outcome.sent.push(message.key)
      } catch (error) {
        record = withFailure(record, message.key, errorMessage(error), now)
        outcome.failed.push(message.key)
        // The merchant reads it in the order's Lastmile panel: at the first failure, and when the attempts run out.
        const failed = record.failed[message.key]
        if (failed.attempts === 1 || failed.next_at === null) {
          history = withHistoryEntry(history, failureEntry(record, message, channel, data.title))
        }
      }
    }
  }
  const next = planNotifications(task, record, options, now).next_check_at
  const nextAt = next ? new Date(next) : null
  const unchanged = !outcome.sent.length && !outcome.failed.length && !outcome.skipped.length
  if (!unchanged || (nextAt?.getTime() ?? null) !== (row.notify_at ? new Date(row.notify_at).getTime() : null)) {
    await tasks.update({
      id: row.id,
      notifications: record,
      notify_at: nextAt,
      ...(history !== row.status_history ? { status_history: history } : {}),
    })
  }
  return outcome
}

function channelOf(message: DueMessage, options: ResolvedNotificationOptions): string {
  return message.audience === "shopper" ? options.channel : options.merchantChannel
}

/** The task's history entry of a failed send: the first failure, and the last attempt. */
function failureEntry(record: NotificationRecord, message: DueMessage, channel: string, title: string) {
  const failed = record.failed[message.key]
  const detail =
    failed.next_at === null
      ? `The ${channel} message “${title}” was not sent after ${MAX_SEND_ATTEMPTS} attempts: ${failed.error}`
      : `The ${channel} message “${title}” could not be sent (attempt ${failed.attempts} of ${MAX_SEND_ATTEMPTS}; retried from ${failed.next_at}): ${failed.error}`
  return { value: "notification failed", detail }
}
