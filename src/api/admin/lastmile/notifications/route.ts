/** GET /admin/lastmile/notifications: which messages are on, each channel with its provider, the words' locales. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { NotificationsOverview } from "../../../../lib/contracts/admin-api"
import { notificationsOverview } from "../../../../lib/notifications/test-messages"
import { wordsFor } from "../../../../lib/notifications/notify-pass"
import { readShop } from "../../../../lib/notifications/medusa/read-shop"
import { PluginSettingsService } from "../../../../modules/lastmile/services/plugin-settings"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const settings = PluginSettingsService.of(req.scope)
  const options = settings.options.notifications
  const shop = await readShop(req.scope)
  const body: NotificationsOverview = notificationsOverview(
    options,
    settings.notificationProviders(),
    (channel) => settings.requiresMessageId(channel),
    { locales: shop.locales, defaultLocale: wordsFor(options, shop.locales[0] ?? null).defaultLocale }
  )
  res.json(body)
}
