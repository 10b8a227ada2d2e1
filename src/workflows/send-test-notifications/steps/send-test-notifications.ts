/**
 * Sends every message once, from a sample order, to the address and phone the merchant typed, and says what each
 * provider answered (decision 61). Nothing to undo: a test sent stays sent.
 */
import { Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { NotificationTestReport, NotificationTestResult } from "../../../lib/contracts/admin-api"
import { type TestTarget, testMessages } from "../../../lib/notifications/test-messages"
import { wordsFor } from "../../../lib/notifications/notify-pass"
import type { NotificationCalls } from "../../../lib/notifications/notify-pass"
import type { Shop } from "../../../lib/notifications/medusa/read-shop"
import { errorMessage } from "../../../lib/support/error-message"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"

export interface SendTestNotificationsInput extends TestTarget {
  shop: Shop
}

export const sendTestNotificationsStepId = "lastmile-send-test-notifications"

export const sendTestNotificationsStep = createStep(
  sendTestNotificationsStepId,
  async ({ shop, ...target }: SendTestNotificationsInput, { container }) => {
    const settings = PluginSettingsService.of(container)
    const options = settings.options.notifications
    const notifications = container.resolve<NotificationCalls>(Modules.NOTIFICATION)
    const words = wordsFor(options, shop.locales[0] ?? null)
    const results: NotificationTestResult[] = []
    for (const { via, message } of await testMessages(
      options,
      words,
      target,
      new Date(),
      options.shopName ?? shop.name
    )) {
      const provider = settings.notificationProviders().get(message.channel)
      const result: NotificationTestResult = {
        event: message.data.event,
        via,
        channel: message.channel,
        to: message.to,
        provider: provider?.id ?? null,
        status: "sent",
        subject: message.data.title,
        external_id: null,
        error: null,
      }
      if (!provider) {
        results.push({
          ...result,
          status: "no_provider",
          error: `no provider handles the "${message.channel}" channel`,
        })
        continue
      }
      try {
        const created = await notifications.createNotifications(message)
        result.external_id = created?.external_id ?? null
        if (settings.requiresMessageId(message.channel) && created && !created.external_id) {
          await notifications.updateNotifications({ id: created.id, status: "failure" })
          Object.assign(result, { status: "not_sent", error: "the provider answered without a message id" })
        }
      } catch (error) {
        Object.assign(result, { status: "failed", error: errorMessage(error) })
      }
      results.push(result)
    }
    return new StepResponse<NotificationTestReport>({ results })
  }
)
