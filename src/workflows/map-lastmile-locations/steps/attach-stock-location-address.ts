/**
 * Gives a stock location that has none an address holding the lastmile link (decision 27); its compensation detaches
 * the address, then deletes it.
 */
import type { UpdateStockLocationInput } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { LinkedAddress } from "../../../lib/store/location-mapping"

export interface AttachStockLocationAddressInput {
  stock_location_id: string
  address: LinkedAddress
}

export const attachStockLocationAddressStepId = "lastmile-attach-stock-location-address"

// The input type has no "no address", which the module's update accepts: null detaches the address.
const DETACH = { address: null } as Omit<UpdateStockLocationInput, "address">

export const attachStockLocationAddressStep = createStep(
  attachStockLocationAddressStepId,
  async (input: AttachStockLocationAddressInput, { container }) => {
    const locations = container.resolve(Modules.STOCK_LOCATION)
    // Medusa's updateStockLocationsWorkflow attaches only an address the location has (and its compensation restores no
    // "no address"): the module's nested update attaches a new one.
    const updated = await locations.updateStockLocations(input.stock_location_id, { address: input.address })
    const addressId = updated.address?.id ?? updated.address_id ?? null
    return new StepResponse(addressId, { stock_location_id: input.stock_location_id, address_id: addressId })
  },
  async (attached, { container }) => {
    if (!attached?.address_id) {
      return
    }
    const locations = container.resolve(Modules.STOCK_LOCATION)
    // Detached first: deleting an attached address cascades to its location.
    await locations.updateStockLocations(attached.stock_location_id, DETACH)
    await locations.deleteStockLocationAddresses(attached.address_id)
  }
)
