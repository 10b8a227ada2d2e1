/**
 * Registers the plugin's additions to Medusa's shipping pricing contexts
 * (src/lib/checkout/pricing-additions.ts says what they are): the cart's, on
 * the two cart pricing workflows, and an order's, on the two workflows that
 * price an exchange's or a claim's shipping.
 *
 * Medusa allows one handler per hook: with this plugin installed, the host
 * app cannot also consume `setCalculatedShippingPricingContext` on these
 * workflows (the README says so).
 */
import { StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  calculateShippingOptionsPricesWorkflow,
  fetchShippingOptionForOrderWorkflow,
  listShippingOptionsForCartWithPricingWorkflow,
  maybeRefreshShippingMethodsWorkflow,
} from "@medusajs/medusa/core-flows"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import type { LastmileModuleService } from "../../modules/lastmile/service"
import { type OrderPricingInput, orderPricingAdditions } from "../../lib/checkout/medusa/read-pricing-additions"
import { lastmilePricingContext } from "../cart-pricing-additions"

const optionIndexOf = (container: MedusaContainer) =>
  container.resolve<LastmileModuleService>(LASTMILE_MODULE).optionIndex

listShippingOptionsForCartWithPricingWorkflow.hooks.setCalculatedShippingPricingContext(
  async ({ input }, { container }) => new StepResponse(await lastmilePricingContext(input.cart_id, container))
)

calculateShippingOptionsPricesWorkflow.hooks.setCalculatedShippingPricingContext(
  async ({ input }, { container }) => new StepResponse(await lastmilePricingContext(input.cart_id, container))
)

fetchShippingOptionForOrderWorkflow.hooks.setCalculatedShippingPricingContext(
  async ({ input }, { container }) =>
    new StepResponse(await orderPricingAdditions(container, input as OrderPricingInput, optionIndexOf(container)))
)

maybeRefreshShippingMethodsWorkflow.hooks.setCalculatedShippingPricingContext(
  async ({ input }, { container }) =>
    new StepResponse(await orderPricingAdditions(container, input as OrderPricingInput, optionIndexOf(container)))
)
