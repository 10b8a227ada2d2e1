/** GET /admin/lastmile: connection, webhook URL, locations and checks for the settings page. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { LastmileOverview } from "../../../lib/contracts/admin-api"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService } from "../../../modules/lastmile/service"
import { lastmileOverview } from "./reads/overview"
import { webhookUrl } from "./reads/webhook-url"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const overview = await lastmileOverview(req.scope)
  const module = req.scope.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const body: LastmileOverview = {
    ...overview,
    webhook: {
      ...overview.webhook,
      ...webhookUrl(overview.webhook.path, req, {
        configured: module.configuredBackendUrl(),
        trustForwarded: module.getPluginOptions().trustForwardedHeaders,
      }),
    },
  }
  res.json(body)
}
