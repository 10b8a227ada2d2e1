/** GET /admin/lastmile: connection, webhook URL, locations and checks for the settings page. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { LastmileOverview } from "../../../lib/contracts/admin-api"
import { lastmileOverview } from "./reads/overview"

export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const overview = await lastmileOverview(req.scope)
  const origin = `${req.protocol}://${req.get("host")}`
  const body: LastmileOverview = {
    ...overview,
    webhook: { ...overview.webhook, url: overview.webhook.path ? `${origin}${overview.webhook.path}` : null },
  }
  res.json(body)
}
