/**
 * GET /store/lastmile/rates?cart_id=…: every lastmile option available to the cart, priced from the cart's quotes,
 * with what a storefront shows beside the amount (decisions 18 and 41).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "@medusajs/framework/zod"
import { listCartRates } from "../../../../lib/checkout/medusa/cart-rates"
import { CheckoutAnswersService } from "../../../../modules/lastmile/services/checkout-answers"

const ratesQuerySchema = z.object({
  cart_id: z
    .string({ error: "cart_id is required, once" })
    .trim()
    .min(1, "cart_id is required")
    .max(100, "cart_id is not a cart id")
    .regex(/^[A-Za-z0-9_-]+$/, "cart_id is not a cart id"),
})

/** Answers a `LastmileRatesResponse`, sent as the JSON kept for the cart's state. */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = ratesQuerySchema.safeParse(req.query)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((i) => i.message).join("; "))
  }
  const state = CheckoutAnswersService.of(req.scope).cartRatesState()
  const { body } = await listCartRates(req.scope, parsed.data.cart_id, state)
  // The answer as kept: an unchanged cart's JSON is not made again.
  res.type("json").send(body)
}
