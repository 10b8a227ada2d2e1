/** GET /admin/lastmile: connection, webhook URL, locations and checks for the settings page. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { LastmileOverview } from "../../../lib/contracts/admin-api"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import { lastmileOverview } from "./reads/overview"
import { webhookUrl } from "../../../lib/options/backend-urls"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const overview = await lastmileOverview(req.scope)
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
