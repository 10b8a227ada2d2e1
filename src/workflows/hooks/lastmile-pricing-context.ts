/**
 * Registers the plugin's additions to Medusa's shipping pricing contexts
 * (src/lib/checkout/pricing-additions.ts says what they are): the cart's, on
 * the two cart pricing workflows, and an order's, on the two workflows that
 * price an exchange's or a claim's shipping.
 *
 * Medusa allows one handler per hook: where the host app handles one of
 * these itself, its handler stays and the boot log says what it must merge
 * (`lastmilePricingContext`, `lastmileOrderPricingContext`; the README's Install).
 */
import { logger } from "@medusajs/framework/logger"
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

const hook = "setCalculatedShippingPricingContext"
const cartWithout =
  "lastmile options lack the cart's email and dispatch address, and are unavailable; return lastmilePricingContext(input.cart_id, container) (medusa-plugin-lastmile/workflows) merged into your handler's context"
const orderWithout =
  "an exchange's or a claim's lastmile replacement cannot be priced; return lastmileOrderPricingContext(input, container) (medusa-plugin-lastmile/workflows) merged into your handler's context"

claimHook(
  { workflow: "listShippingOptionsForCartWithPricingWorkflow", hook, without: cartWithout },
  () =>
    listShippingOptionsForCartWithPricingWorkflow.hooks.setCalculatedShippingPricingContext(
      async ({ input }, { container }) => new StepResponse(await lastmilePricingContext(input.cart_id, container))
    ),
  logger
)

claimHook(
  { workflow: "calculateShippingOptionsPricesWorkflow", hook, without: cartWithout },
  () =>
    calculateShippingOptionsPricesWorkflow.hooks.setCalculatedShippingPricingContext(
      async ({ input }, { container }) => new StepResponse(await lastmilePricingContext(input.cart_id, container))
    ),
  logger
)

claimHook(
  { workflow: "fetchShippingOptionForOrderWorkflow", hook, without: orderWithout },
  () =>
    fetchShippingOptionForOrderWorkflow.hooks.setCalculatedShippingPricingContext(
      async ({ input }, { container }) =>
        new StepResponse(await lastmileOrderPricingContext(input as OrderPricingInput, container))
    ),
  logger
)

claimHook(
  { workflow: "maybeRefreshShippingMethodsWorkflow", hook, without: orderWithout },
  () =>
    maybeRefreshShippingMethodsWorkflow.hooks.setCalculatedShippingPricingContext(
      async ({ input }, { container }) =>
        new StepResponse(await lastmileOrderPricingContext(input as OrderPricingInput, container))
    ),
  logger
)
