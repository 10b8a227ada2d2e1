/**
 * GET /store/lastmile/rates?cart_id=…
 *
 * Every lastmile shipping option available to the cart, priced from the
 * cart's quotes (one per delivery type and cart state), with what a
 * storefront shows beside the amount, and each delivery option's rates. Medusa's
 * stock storefronts never price calculated pickup options; this is how a
 * storefront shows one click-and-collect price per store.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { listShippingOptionsForCartWithPricingWorkflow } from "@medusajs/medusa/core-flows"
import { z } from "zod"
import { LASTMILE_PROVIDER_ID } from "../../../../lib/lastmile/fulfillment-options"
import { type LastmileOptionRate, toOptionRate } from "./option-rate"

const ratesQuerySchema = z.object({
  cart_id: z.string({ error: "cart_id is required" }).trim().min(1, "cart_id is required"),
})

export interface LastmileRatesResponse {
  cart_id: string
  currency_code: string
  /** `PARTIAL` when any of the cart's quotes is partial, else `FULL`; null when no quote was made. */
  eligibility: string | null
  rates: LastmileOptionRate[]
}

export async function GET(req: MedusaRequest, res: MedusaResponse<LastmileRatesResponse>): Promise<void> {
  const parsed = ratesQuerySchema.safeParse(req.query)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((i) => i.message).join("; "))
  }
  const cartId = parsed.data.cart_id
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const [carts, options] = await Promise.all([
    query.graph({ entity: "cart", fields: ["id", "currency_code"], filters: { id: cartId } }),
    query.graph({ entity: "shipping_option", fields: ["id"], filters: { provider_id: LASTMILE_PROVIDER_ID } }),
  ])
  const cart = carts.data[0] as { id: string; currency_code: string } | undefined
  if (!cart) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart with id: ${cartId} was not found`)
  }
  let rates: LastmileOptionRate[] = []
  if (options.data.length) {
    // One workflow run prices every option in parallel; the provider's cache makes that one quote per delivery type.
    const { result } = await listShippingOptionsForCartWithPricingWorkflow(req.scope).run({
      input: { cart_id: cartId, options: options.data.map((o: { id: string }) => ({ id: o.id })), is_return: false },
    })
    rates = (result as Parameters<typeof toOptionRate>[0][])
      .filter((option) => option.provider_id === LASTMILE_PROVIDER_ID)
      .map((option) => toOptionRate(option, cart.currency_code))
      .sort((a, b) => kindRank(a) - kindRank(b) || a.name.localeCompare(b.name))
  }
  res.json({
    cart_id: cartId,
    currency_code: cart.currency_code,
    eligibility: rates.some((r) => r.eligibility === "PARTIAL")
      ? "PARTIAL"
      : (rates.find((r) => r.eligibility)?.eligibility ?? null),
    rates,
  })
}

function kindRank(rate: LastmileOptionRate): number {
  return rate.type === "delivery" ? 0 : 1
}
