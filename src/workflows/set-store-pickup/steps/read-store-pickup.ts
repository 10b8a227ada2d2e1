/** Reads a stock location's pickup settings and position as kept (decision 65). Reads only. */
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { readStorePickup } from "../../../lib/collection/medusa/read-store-pickup"

export const readStorePickupStepId = "lastmile-read-store-pickup"

export const readStorePickupStep = createStep(
  readStorePickupStepId,
  async ({ stock_location_id }: { stock_location_id: string }, { container }) => {
    const store = await readStorePickup(container, stock_location_id)
    if (!store) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Stock location with id: ${stock_location_id} was not found`)
    }
    return new StepResponse(store)
  }
)
