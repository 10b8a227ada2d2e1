/**
 * Registers the plugin's additions to Medusa's shipping pricing contexts (src/lib/checkout/pricing-additions.ts): the
 * cart's on the two cart pricing workflows, an order's on the two that price an exchange's or a claim's.
 */
import { logger } from "@medusajs/framework/logger"
import type { MedusaContainer } from "@medusajs/framework/types"
import { StepResponse } from "@medusajs/framework/workflows-sdk"
import {
  calculateShippingOptionsPricesWorkflow,
  fetchShippingOptionForOrderWorkflow,
  listShippingOptionsForCartWithPricingWorkflow,
  maybeRefreshShippingMethodsWorkflow,
} from "@medusajs/medusa/core-flows"
import type { OrderPricingInput } from "../../lib/checkout/medusa/read-pricing-additions"
import { claimHook } from "../../lib/support/claim-hook"
import { lastmileOrderPricingContext, lastmilePricingContext } from "../host-pricing-additions"

const cartWithout =
  "lastmile options lack the cart's email and dispatch address, and are unavailable; return lastmilePricingContext(input.cart_id, container) (medusa-plugin-lastmile/workflows) merged into your handler's context"
const orderWithout =
  "an exchange's or a claim's lastmile replacement cannot be priced; return lastmileOrderPricingContext(input, container) (medusa-plugin-lastmile/workflows) merged into your handler's context"

const claim = (workflow: string, without: string, register: () => void) =>
  claimHook({ workflow, hook: "setCalculatedShippingPricingContext", without }, register, logger)
const forCart = async ({ input }: { input: { cart_id?: string } }, { container }: { container: MedusaContainer }) =>
  new StepResponse(await lastmilePricingContext(input.cart_id, container))
const forOrder = async ({ input }: { input: unknown }, { container }: { container: MedusaContainer }) =>
  new StepResponse(await lastmileOrderPricingContext(input as OrderPricingInput, container))

claim("listShippingOptionsForCartWithPricingWorkflow", cartWithout, () =>
  listShippingOptionsForCartWithPricingWorkflow.hooks.setCalculatedShippingPricingContext(forCart)
)
claim("calculateShippingOptionsPricesWorkflow", cartWithout, () =>
  calculateShippingOptionsPricesWorkflow.hooks.setCalculatedShippingPricingContext(forCart)
)
claim("fetchShippingOptionForOrderWorkflow", orderWithout, () =>
  fetchShippingOptionForOrderWorkflow.hooks.setCalculatedShippingPricingContext(forOrder)
)
claim("maybeRefreshShippingMethodsWorkflow", orderWithout, () =>
  maybeRefreshShippingMethodsWorkflow.hooks.setCalculatedShippingPricingContext(forOrder)
)
