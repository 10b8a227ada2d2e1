/** `identifyDelivery` as a step: what a lastmile fulfillment books, for a workflow that books one Medusa already created. */
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type DeliveryPlan, identifyDelivery } from "../identify-delivery"

export const identifyDeliveryStepId = "lastmile-identify-delivery"

export const identifyDeliveryStep = createStep(
  identifyDeliveryStepId,
  async (input: { fulfillment_id: string }, { container }) => {
    const identity = await identifyDelivery(container, input.fulfillment_id)
    if (identity.action === "skip") {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, identity.reason)
    }
    const { action: _action, ...plan } = identity
    return new StepResponse<DeliveryPlan>(plan)
  }
)
