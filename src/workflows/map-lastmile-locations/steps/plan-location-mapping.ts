/**
 * Reads the service's locations and Medusa's stock locations, and plans a link, an unlink or a stock location created
 * (lib/store/location-mapping.ts, decision 27) before anything changes.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { readLocationState } from "../../../lib/store/medusa/read-location-state"
import { type PlanLocationMappingInput, planLocationMapping } from "../../../lib/store/location-mapping"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"

export const planLocationMappingStepId = "lastmile-plan-location-mapping"

export const planLocationMappingStep = createStep(
  planLocationMappingStepId,
  async (input: PlanLocationMappingInput, { container }) => {
    const { remote, stock } = await readLocationState(container, ServiceConnectionService.of(container).get())
    const plan = planLocationMapping({ ...input, remote, stock })
    // The route answers with it: unknown ids are NOT_FOUND, anything the merchant must settle first NOT_ALLOWED.
    if ("refused" in plan) {
      const type = plan.refused === "not_found" ? MedusaError.Types.NOT_FOUND : MedusaError.Types.NOT_ALLOWED
      throw new MedusaError(type, plan.message)
    }
    return new StepResponse(plan)
  }
)
