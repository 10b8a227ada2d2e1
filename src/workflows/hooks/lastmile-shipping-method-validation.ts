/**
 * Before Medusa prices a lastmile option the shopper is choosing, check that
 * the cart has what the service needs (address, name, email, a phone that can
 * be dialled). Without this, a missing phone would surface as Medusa's
 * "Shipping options with IDs … do not have a price": the option cannot be
 * priced without it. Here the shopper gets a 400 saying what to fix.
 *
 * Medusa allows one handler per hook: the host app cannot also consume
 * `addShippingMethodToCartWorkflow`'s `validate` hook (the README says so).
 */
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { addShippingMethodToCartWorkflow } from "@medusajs/medusa/core-flows"
import { LASTMILE_PROVIDER_ID } from "../../providers/lastmile/fulfillment-options"
import {
  type MedusaAddressLike,
  type MedusaLineLike,
  checkShopperDetails,
} from "../../providers/lastmile/quote-request"

addShippingMethodToCartWorkflow.hooks.validate(async ({ input, cart }, { container }) => {
  const optionIds = (input.options ?? []).map((option: { id: string }) => option.id)
  if (!optionIds.length) {
    return
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: lastmileOptions } = await query.graph({
    entity: "shipping_option",
    fields: ["id"],
    filters: { id: optionIds, provider_id: LASTMILE_PROVIDER_ID },
  })
  if (!lastmileOptions.length) {
    return
  }
  const shopper = cart as unknown as {
    email?: string | null
    shipping_address?: MedusaAddressLike | null
    items?: MedusaLineLike[]
  }
  const check = checkShopperDetails({
    shippingAddress: shopper.shipping_address,
    email: shopper.email,
    items: shopper.items ?? [],
  })
  if (!check.ok) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, check.problems.map((p) => p.message).join(" "))
  }
})
