/** POST /admin/lastmile/locations/:id/collection {enabled}: the location's collectionEnabled switch at the service. */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { lastmileClient } from "../../../../../../lib/connection/lastmile-connection"
import { errorMessage } from "../../../../../../lib/lastmile/error-message"
import type { CollectionSwitchType } from "../../../validators"

export async function POST(req: AuthenticatedMedusaRequest<CollectionSwitchType>, res: MedusaResponse): Promise<void> {
  const connection = lastmileClient(req.scope)
  if (!connection) {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The lastmile provider is not configured")
  }
  const { enabled } = req.validatedBody
  try {
    const location = await connection.client.setCollectionEnabled(req.params.id, enabled)
    res.json({ fulfilment_location_id: req.params.id, collection_enabled: location?.collectionEnabled ?? enabled })
  } catch (error) {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `The service did not change collection for location ${req.params.id}: ${errorMessage(error)}`
    )
  }
}
