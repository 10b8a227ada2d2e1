/**
 * The plugin's additions to a cart's shipping pricing context, for a host
 * app that consumes `setCalculatedShippingPricingContext` itself and so must
 * merge them into its own handler (Medusa allows one handler per hook).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { LASTMILE_MODULE } from "../modules/lastmile"
import type { LastmileModuleService } from "../modules/lastmile/service"
import { cartPricingAdditions } from "../lib/checkout/medusa/read-pricing-additions"
import type { LastmilePricingContext } from "../lib/checkout/pricing-additions"

export async function lastmilePricingContext(
  cartId: string | undefined,
  container: MedusaContainer
): Promise<LastmilePricingContext> {
  return cartPricingAdditions(container, cartId, container.resolve<LastmileModuleService>(LASTMILE_MODULE).optionIndex)
}
