/** GET /admin/lastmile: connection, webhook URL, locations and checks for the settings page. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { LastmileOverview } from "../../../lib/contracts/admin-api"
import { lastmileOverview } from "../../../lib/store/overview"
import { readLocationStateSettled } from "../../../lib/store/medusa/read-location-state"
import { webhookUrl } from "../../../lib/options/backend-urls"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const overview = lastmileOverview(
    await readLocationStateSettled(req.scope, ServiceConnectionService.of(req.scope).get())
  )
  const settings = PluginSettingsService.of(req.scope)
  const body: LastmileOverview = {
    ...overview,
    webhook: {
      ...overview.webhook,
      ...webhookUrl(overview.webhook.path, req, {
        configured: settings.backendUrl(),
        trustForwarded: settings.options.trustForwardedHeaders,
      }),
    },
  }
  res.json(body)
}
