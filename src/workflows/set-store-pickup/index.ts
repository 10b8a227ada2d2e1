/**
 * Sets a store's own words for collecting there, its closed dates and its position (decision 65), kept on Medusa's
 * stock location; checkout reads them again at once through the location's own events (decision 40).
 */
import { WorkflowResponse, createWorkflow, transform } from "@medusajs/framework/workflows-sdk"
import type { PickupChange } from "../../lib/collection/pickup-settings"
import { readStorePickupStep } from "./steps/read-store-pickup"
import { writeStorePickupStep } from "./steps/write-store-pickup"

export type SetStorePickupWorkflowInput = PickupChange & { stock_location_id: string }

export const setStorePickupWorkflowId = "lastmile-set-store-pickup"

export const setStorePickupWorkflow = createWorkflow(setStorePickupWorkflowId, (input: SetStorePickupWorkflowInput) => {
  const store = readStorePickupStep({ stock_location_id: input.stock_location_id })
  const change = transform({ input }, ({ input }) => {
    const { stock_location_id: _id, ...fields } = input
    return fields
  })
  return new WorkflowResponse(writeStorePickupStep({ store, change }))
})
