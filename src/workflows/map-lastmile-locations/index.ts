/**
 * Settings → Lastmile's location mapping as workflows (decision 27): link a service location to a stock location,
 * unlink it, create a stock location from it, switch its collection at the service.
 */
import { createStockLocationsWorkflow, updateStockLocationsWorkflow } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import type { LocationMappingResult } from "../../lib/contracts/admin-api"
import { acquireSetupLock, releaseSetupLock } from "../setup-shipping-options"
import type { LocationMappingPlan } from "../../lib/store/location-mapping"
import { planLocationMappingStep } from "./steps/plan-location-mapping"
import { attachStockLocationAddressStep } from "./steps/attach-stock-location-address"
import { restoreExternalIdStep } from "./steps/restore-external-id"
import { type SetCollectionEnabledInput, setCollectionEnabledStep } from "./steps/set-collection-enabled"

export interface LinkLastmileLocationWorkflowInput {
  /** The service's fulfilmentLocationId. */
  fulfilment_location_id: string
  stock_location_id: string
}

export interface UnlinkLastmileLocationWorkflowInput {
  fulfilment_location_id: string
}

export type CreateLastmileStockLocationWorkflowInput = UnlinkLastmileLocationWorkflowInput

export type SetLastmileCollectionWorkflowInput = SetCollectionEnabledInput

export const linkLastmileLocationWorkflowId = "lastmile-link-location"
export const unlinkLastmileLocationWorkflowId = "lastmile-unlink-location"
export const createLastmileStockLocationWorkflowId = "lastmile-create-stock-location"
export const setLastmileCollectionWorkflowId = "lastmile-set-collection"

function planned<K extends "update" | "attach" | "create">(
  plan: LocationMappingPlan,
  key: K
): NonNullable<LocationMappingPlan[K]> {
  const change = plan[key]
  if (!change) {
    // Only reached under a `when` that checked it.
    throw new Error(`lastmile: the mapping plan has no ${key}`)
  }
  return change
}

/** The link written on the address by Medusa's update workflow, undone by the step before it. */
function rewriteAddress(plan: LocationMappingPlan, name: string): void {
  when(name, { plan }, ({ plan }) => !!plan.update).then(() => {
    const update = transform({ plan }, ({ plan }) => planned(plan, "update"))
    restoreExternalIdStep(update)
    const input = transform({ update }, ({ update }) => ({
      selector: { id: update.stock_location_id },
      update: { address: update.address },
    }))
    updateStockLocationsWorkflow.runAsStep({ input })
  })
}

export const linkLastmileLocationWorkflow = createWorkflow(
  linkLastmileLocationWorkflowId,
  (input: LinkLastmileLocationWorkflowInput) => {
    // The setup's lock: the setup plans from the mapping, and two links at once could both claim one stock location.
    const lockOwner = acquireSetupLock()
    const plan = planLocationMappingStep(transform({ input }, ({ input }) => ({ action: "link" as const, ...input })))
    rewriteAddress(plan, "lastmile-link-when-address-rewritten")
    when("lastmile-link-when-address-attached", { plan }, ({ plan }) => !!plan.attach).then(() => {
      attachStockLocationAddressStep(transform({ plan }, ({ plan }) => planned(plan, "attach")))
    })
    releaseSetupLock(lockOwner)
    return new WorkflowResponse<LocationMappingResult>(transform({ plan }, ({ plan }) => plan.result))
  }
)

export const unlinkLastmileLocationWorkflow = createWorkflow(
  unlinkLastmileLocationWorkflowId,
  (input: UnlinkLastmileLocationWorkflowInput) => {
    const lockOwner = acquireSetupLock()
    const plan = planLocationMappingStep(transform({ input }, ({ input }) => ({ action: "unlink" as const, ...input })))
    rewriteAddress(plan, "lastmile-unlink-when-address-rewritten")
    releaseSetupLock(lockOwner)
    return new WorkflowResponse<LocationMappingResult>(transform({ plan }, ({ plan }) => plan.result))
  }
)

export const createLastmileStockLocationWorkflow = createWorkflow(
  createLastmileStockLocationWorkflowId,
  (input: CreateLastmileStockLocationWorkflowInput) => {
    const lockOwner = acquireSetupLock()
    const plan = planLocationMappingStep(transform({ input }, ({ input }) => ({ action: "create" as const, ...input })))
    const locations = transform({ plan }, ({ plan }) => ({ locations: [planned(plan, "create")] }))
    const created = createStockLocationsWorkflow.runAsStep({ input: locations })
    releaseSetupLock(lockOwner)
    return new WorkflowResponse<LocationMappingResult>(
      transform({ plan, created }, ({ plan, created }) => {
        const [location] = created
        return { ...plan.result, stock_location: location ? { id: location.id, name: location.name } : null }
      })
    )
  }
)

export const setLastmileCollectionWorkflow = createWorkflow(
  setLastmileCollectionWorkflowId,
  (input: SetLastmileCollectionWorkflowInput) => new WorkflowResponse(setCollectionEnabledStep(input))
)
