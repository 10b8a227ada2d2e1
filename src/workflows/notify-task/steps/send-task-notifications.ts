/**
 * Sends a task's due messages through Medusa's Notification Module and records them on the task row, under the task's
 * tracking lock (decisions 45 to 47; the pass itself is lib/notifications/notify-pass.ts).
 */
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { errorMessage } from "../../../lib/support/error-message"
import { taskTrackingLockKey } from "../../../lib/tracking/task-sync"
import { taskModeOf } from "../../../lib/notifications/due-notifications"
import { type SentTaskNotifications, notifyPass } from "../../../lib/notifications/notify-pass"
import { type NotificationCalls, orderUrlOf, sendOnce } from "../../../lib/notifications/notify-pass"
import { readNotificationFacts } from "../../../lib/notifications/medusa/notification-facts"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"
import { TrackingRunsService } from "../../../modules/lastmile/services/tracking-runs"

export type { SentTaskNotifications }

export interface SendTaskNotificationsInput {
  /** The task's row id; or else `merchant_order_id`. */
  task_row_id?: string
  /** The task's reference at the service (the booking failure's workflow knows only that). */
  merchant_order_id?: string
  /** The caller holds the task's tracking lock (the tracking sync); otherwise the step takes it. */
  lock_held?: boolean
  /** The notification pass's clock, ISO 8601 (tests move it); now when absent. */
  now?: string
  /**
   * The shopper's messages wait this long (the merchant's go now): a fulfillment booked inside the workflow that
   * created it, whose `order.fulfillment_created` event says whether the merchant asked for no notification.
   */
  hold_shopper_ms?: number
  /** That event said `no_notification: true`: the shopper is told nothing of this task. */
  fulfillment_no_notification?: boolean
}

export const sendTaskNotificationsStepId = "lastmile-send-task-notifications"

/** How long a run waits for the task's tracking lock: whoever holds it is a sync, which sends what is due itself. */
const LOCK_WAIT_SECONDS = 2
/** When the pass looks again at a task whose lock was busy. */
const BUSY_RETRY_MS = 60_000

const NOTHING: SentTaskNotifications = { sent: [], failed: [], skipped: [] }

// Nothing to compensate: a message sent stays sent, and its record with it.
export const sendTaskNotificationsStep = createStep(
  sendTaskNotificationsStepId,
  async (input: SendTaskNotificationsInput, { container }) =>
    new StepResponse(await sendTaskNotifications(container, input))
)

/** The step's work, for the step and the pass: never throws. */
export async function sendTaskNotifications(
  container: MedusaContainer,
  input: SendTaskNotificationsInput
): Promise<SentTaskNotifications> {
  const name = input.task_row_id ?? input.merchant_order_id ?? "(none)"
  try {
    const tasks = TaskRowsService.of(container)
    if (!PluginSettingsService.of(container).options.notifications.enabled) {
      return { ...NOTHING, not_run: "notifications are off" }
    }
    const id =
      input.task_row_id ??
      (input.merchant_order_id
        ? (await tasks.list({ merchant_order_id: input.merchant_order_id }, { select: ["id"] }))[0]?.id
        : undefined)
    if (!id) {
      return { ...NOTHING, not_run: `no task ${name}` }
    }
    const now = input.now ? new Date(input.now) : new Date()
    if (input.lock_held) {
      return await notify(container, id, now, input)
    }
    let locked = false
    const run = () => {
      locked = true
      return notify(container, id, now, input)
    }
    try {
      return await container
        .resolve(Modules.LOCKING)
        .execute(taskTrackingLockKey(id), run, { timeout: LOCK_WAIT_SECONDS })
    } catch (error) {
      if (locked) {
        throw error
      }
      // A sync holds the task: it sends what is due itself; the pass looks again in case it read the row first.
      await tasks.update({ id, notify_at: new Date(now.getTime() + BUSY_RETRY_MS) })
      return { ...NOTHING, not_run: "the task's tracking lock was busy; the notification pass looks again" }
    }
  } catch (error) {
    container
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .warn(`lastmile: messages of task ${name} not sent now (the notification pass retries): ${errorMessage(error)}`)
    return { ...NOTHING, not_run: errorMessage(error) }
  }
}

async function notify(
  container: MedusaContainer,
  id: string,
  now: Date,
  input: Pick<SendTaskNotificationsInput, "hold_shopper_ms" | "fulfillment_no_notification">
): Promise<SentTaskNotifications> {
  const tasks = TaskRowsService.of(container)
  const settings = PluginSettingsService.of(container)
  const options = settings.options.notifications
  const connection = ServiceConnectionService.of(container).get()
  const row = await tasks.retrieve(id)
  const mode = taskModeOf(row)
  const notifications = container.resolve<NotificationCalls>(Modules.NOTIFICATION)
  const pass = {
    holdShopperUntil: input.hold_shopper_ms ? new Date(now.getTime() + input.hold_shopper_ms) : null,
    fulfillmentQuiet: input.fulfillment_no_notification === true,
  }
  const { outcome, update } = await notifyPass(
    { ...row, mode },
    options,
    now,
    {
      canNotifyOn: (channel) => settings.canNotifyOn(channel),
      readFacts: (events) =>
        readNotificationFacts(container, row, mode, events, {
          operatingHours: async (externalId) =>
            (await TrackingRunsService.of(container).serviceLocation(connection?.client, externalId))?.operatingHours,
          adminOrderUrl: (orderId) => settings.adminOrderUrl(orderId),
          shopName: options.shopName,
          orderUrl: (orderId) => orderUrlOf(options.orderUrl, orderId),
        }),
      send: (message) => sendOnce(notifications, message, settings.requiresMessageId(message.channel)),
    },
    pass
  )
  if (update) {
    await tasks.update({ id: row.id, ...update })
  }
  return outcome
}
