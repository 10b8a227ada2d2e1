/**
 * POST /hooks/lastmile/:token: the service's status webhooks, outside /store and /admin (no auth, no publishable
 * key): the token, the provider's webhook_secret, authenticates it (decision 14).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { receiveWebhook } from "./intake"

export async function POST(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const answer = await receiveWebhook(req.scope, req.params.token, req)
  if (answer.body) {
    res.status(answer.status).json(answer.body)
  } else {
    res.sendStatus(answer.status)
  }
}
