/**
 * Writes a stock location's pickup on its address's metadata and its position on its own, as planned (decision 65);
 * its compensation writes back what was there, key by key, since Medusa merges metadata on update.
 */
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import {
  PICKUP_METADATA_KEY,
  type PickupChange,
  type PickupSettings,
  type StorePosition,
  planPickupChange,
} from "../../../lib/collection/pickup-settings"
import type { StorePickupRead } from "../../../lib/collection/medusa/read-store-pickup"

export interface WriteStorePickupInput {
  store: StorePickupRead
  change: PickupChange
}

interface Previous {
  stock_location_id: string
  address: StorePickupRead["address_ref"]
  address_metadata: unknown
  metadata: Record<string, unknown> | null
}

export const writeStorePickupStepId = "lastmile-write-store-pickup"

export const writeStorePickupStep = createStep(
  writeStorePickupStepId,
  async ({ store, change }: WriteStorePickupInput, { container }) => {
    const planned = planPickupChange(
      { pickup: store.pickup, position: store.position, has_address: !!store.address_ref },
      change
    )
    if (!planned.ok) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, planned.message)
    }
    const { plan } = planned
    const locations = container.resolve(Modules.STOCK_LOCATION)
    if (plan.address_metadata && store.address_ref) {
      await locations.upsertStockLocationAddresses([{ ...store.address_ref, metadata: plan.address_metadata }])
    }
    if (plan.metadata) {
      await locations.updateStockLocations(store.id, { metadata: { ...(store.metadata ?? {}), ...plan.metadata } })
    }
    const previous: Previous = {
      stock_location_id: store.id,
      address: plan.address_metadata ? store.address_ref : null,
      address_metadata: store.address_metadata?.[PICKUP_METADATA_KEY] ?? "",
      metadata: plan.metadata ? store.metadata : null,
    }
    return new StepResponse<{ pickup: PickupSettings; position: StorePosition | null }, Previous>(
      { pickup: plan.pickup, position: plan.position },
      previous
    )
  },
  async (previous, { container }) => {
    if (!previous) {
      return
    }
    const locations = container.resolve(Modules.STOCK_LOCATION)
    if (previous.address) {
      await locations.upsertStockLocationAddresses([
        { ...previous.address, metadata: { [PICKUP_METADATA_KEY]: previous.address_metadata } },
      ])
    }
    if (previous.metadata !== null) {
      const metadata = previous.metadata
      const restore = { latitude: metadata.latitude ?? "", longitude: metadata.longitude ?? "" }
      await locations.updateStockLocations(previous.stock_location_id, { metadata: { ...metadata, ...restore } })
    }
  }
)
