/**
 * Runs just before the address's link is written, and does nothing then; its compensation puts the previous external
 * id back (or removes the one written, with Medusa's "" convention), which a metadata merge cannot (decision 27).
 */
import { Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { ExternalIdUpdate } from "../../../lib/store/location-mapping"

export const restoreExternalIdStepId = "lastmile-restore-external-id"

export const restoreExternalIdStep = createStep(
  restoreExternalIdStepId,
  async (update: ExternalIdUpdate) => new StepResponse(undefined, update),
  async (update, { container }) => {
    if (!update) {
      return
    }
    const { id, address_1, country_code } = update.address
    await container
      .resolve(Modules.STOCK_LOCATION)
      .upsertStockLocationAddresses([
        { id, address_1, country_code, metadata: { external_location_id: update.previous_external_id ?? "" } },
      ])
  }
)
