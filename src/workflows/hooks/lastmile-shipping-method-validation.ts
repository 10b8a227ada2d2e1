/**
 * Before Medusa prices a lastmile option the shopper chooses (decision 42): the cart has what the service needs and the
 * option (and its `rate_code`) can be offered, else a 400 saying what to fix, not Medusa's "do not have a price".
 */
import { logger } from "@medusajs/framework/logger"
import { MedusaError } from "@medusajs/framework/utils"
import { addShippingMethodToCartWorkflow } from "@medusajs/medusa/core-flows"
import { rateNotOfferedMessage } from "../../lib/checkout/rate-details"
import { type MedusaAddressLike, type MedusaLineLike, checkShopperDetails } from "../../lib/checkout/quote-request"
import { listCartRates } from "../../lib/checkout/medusa/cart-rates"
import { requestedRate } from "../../lib/checkout/chosen-rate"
import { readDeliveryNote } from "../../lib/checkout/delivery-note"
import type { LastmileRatesResponse } from "../../lib/checkout/option-rate"
import { claimHook } from "../../lib/support/claim-hook"
import { CheckoutAnswersService } from "../../modules/lastmile/services/checkout-answers"

const validateLastmileChoice: Parameters<typeof addShippingMethodToCartWorkflow.hooks.validate>[0] = async (
  { input, cart },
  { container }
) => {
  const requested = (input.options ?? []) as { id: string; data?: Record<string, unknown> }[]
  const checkout = CheckoutAnswersService.of(container)
  const catalogue = await checkout.catalogue.read(container)
  if (!requested.some((option) => catalogue.options.has(option.id))) {
    return
  }
  // The note is the shopper's to fix whatever the cart's state: said first (the provider checks it again).
  for (const { id, data } of requested) {
    const option = catalogue.options.get(id)
    const note = option && option.kind !== "return" ? readDeliveryNote(data, option.kind) : null
    if (note && "problem" in note) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, note.problem)
    }
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

  const { body } = await listCartRates(container, shopper.id, checkout.cartRatesState())
  const answer = JSON.parse(body) as LastmileRatesResponse
  for (const { id, data } of requested) {
    const rate = answer.rates.find((r) => r.shipping_option_id === id)
    const option = catalogue.options.get(id)
    // An option Medusa does not offer this cart is Medusa's to refuse.
    if (!rate || !option) {
      continue
    }
    const asked = requestedRate({ id: option.option_id, name: option.name, kind: option.kind }, data)
    if ("problem" in asked) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `${rate.name}: ${asked.problem}`)
    }
    const code = asked.wish?.rateCode
    // A rate asked for must be one the quote offers; without rates (the fallback, a kept price) the choice checks it.
    const offered = !code || !rate.rates.length || rate.rates.some((r) => r.available && r.rate_code === code)
    if (rate.available && offered) {
      continue
    }
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      code && rate.rates.length
        ? rateNotOfferedMessage(code, rate.rates, shopper.currency_code)
        : `${rate.name}: ${rate.unavailable_reason ?? "this option cannot be offered for this cart right now."}`
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
