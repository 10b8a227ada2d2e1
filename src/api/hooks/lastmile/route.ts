/** POST /hooks/lastmile without the token: refused like a wrong token, with no detail. */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"

export async function POST(_req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.sendStatus(401)
}
