/**
 * Before Medusa prices a lastmile option the shopper is choosing, check that
 * the cart has what the service needs (address, name, email, a phone that can
 * be dialled), then that the option (and the `rate_code` asked for) can be
 * offered. Without this, either would surface as Medusa's "Shipping options
 * with IDs … do not have a price". Here the shopper gets a 400 saying what to
 * fix, in the plugin's words. The pricing run here is the one Medusa makes
 * next: it costs no second quote (the provider's quote cache answers it).
 *
 * Medusa allows one handler per hook: where the host app handles
 * `addShippingMethodToCartWorkflow`'s `validate` itself, the boot log says
 * what the shopper loses (the README's Install).
 */
import { logger } from "@medusajs/framework/logger"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import {
  addShippingMethodToCartWorkflow,
  listShippingOptionsForCartWithPricingWorkflow,
} from "@medusajs/medusa/core-flows"
import { isLastmileProviderId } from "../../lib/contracts/fulfillment-options"
import { type LastmileRateDetails, rateNotOfferedMessage } from "../../lib/checkout/rate-details"
import { type MedusaAddressLike, type MedusaLineLike, checkShopperDetails } from "../../lib/checkout/quote-request"
import { claimHook } from "../../lib/support/claim-hook"

const validateLastmileChoice: Parameters<typeof addShippingMethodToCartWorkflow.hooks.validate>[0] = async (
  { input, cart },
  { container }
) => {
  const requested = (input.options ?? []) as { id: string; data?: Record<string, unknown> }[]
  const optionIds = requested.map((option) => option.id)
  if (!optionIds.length) {
    return
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: options } = await query.graph({
    entity: "shipping_option",
    fields: ["id", "provider_id"],
    filters: { id: optionIds },
  })
  const lastmileOptions = options.filter((option) => isLastmileProviderId(option.provider_id))
  if (!lastmileOptions.length) {
    return
  }
  const shopper: ShopperCart = cart
  const check = checkShopperDetails({
    shippingAddress: shopper.shipping_address,
    email: shopper.email,
    items: shopper.items ?? [],
  })
  if (!check.ok) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, check.problems.map((p) => p.message).join(" "))
  }

  const ids = new Set(lastmileOptions.map((option: { id: string }) => option.id))
  const { result } = await listShippingOptionsForCartWithPricingWorkflow(container).run({
    input: { cart_id: shopper.id, options: requested.filter((o) => ids.has(o.id)), is_return: false },
  })
  for (const option of result as PricedOption[]) {
    const details = option.calculated_price?.lastmile
    if (typeof option.amount === "number" || !details) {
      continue
    }
    const rateCode = requested.find((o) => o.id === option.id)?.data?.rate_code
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      rateCode !== undefined && details.rates.length
        ? rateNotOfferedMessage(rateCode, details.rates, shopper.currency_code)
        : `${option.name}: ${details.unavailable_reason ?? "this option cannot be offered for this cart right now."}`
    )
  }
}

claimHook(
  {
    workflow: "addShippingMethodToCartWorkflow",
    hook: "validate",
    without:
      "a lastmile option the cart cannot have is refused with Medusa's \"do not have a price\" instead of the plugin's reason",
  },
  () => addShippingMethodToCartWorkflow.hooks.validate(validateLastmileChoice),
  logger
)

/** The fields of the hook's cart this check reads. */
interface ShopperCart {
  id: string
  currency_code: string
  email?: string | null
  shipping_address?: MedusaAddressLike | null
  items?: MedusaLineLike[]
}

interface PricedOption {
  id: string
  name: string
  amount?: number | null
  calculated_price?: { lastmile?: LastmileRateDetails } | null
}
