/**
 * The plugin's additions to Medusa's shipping pricing contexts, for a host app that handles
 * `setCalculatedShippingPricingContext` itself and merges them into its own handler (decision 38).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { CheckoutAnswersService } from "../modules/lastmile/services/checkout-answers"
import {
  type OrderPricingInput,
  cartPricingAdditions,
  orderPricingAdditions,
} from "../lib/checkout/medusa/read-pricing-additions"
import type { LastmilePricingContext } from "../lib/checkout/pricing-additions"

const catalogueOf = (container: MedusaContainer) => CheckoutAnswersService.of(container).catalogue

/** For `listShippingOptionsForCartWithPricingWorkflow` and `calculateShippingOptionsPricesWorkflow`: the hook's `input.cart_id`. */
export async function lastmilePricingContext(
  cartId: string | undefined,
  container: MedusaContainer
): Promise<LastmilePricingContext> {
  return cartPricingAdditions(container, cartId, catalogueOf(container))
}

/** For `fetchShippingOptionForOrderWorkflow` and `maybeRefreshShippingMethodsWorkflow`: the hook's `input`. */
export async function lastmileOrderPricingContext(
  input: OrderPricingInput,
  container: MedusaContainer
): Promise<LastmilePricingContext> {
  return orderPricingAdditions(container, input, catalogueOf(container))
}
