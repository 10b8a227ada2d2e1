/**
 * GET /store/lastmile/rates?cart_id=…&near=lat,lng: every lastmile option of the cart priced from its quotes, what a
 * storefront shows beside the amount, the nearest stores first (decisions 18, 41 and 66).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "@medusajs/framework/zod"
import { listCartRates } from "../../../../lib/checkout/medusa/cart-rates"
import { parseNear } from "../../../../lib/collection/store-order"
import { CheckoutAnswersService } from "../../../../modules/lastmile/services/checkout-answers"

const ratesQuerySchema = z.object({
  cart_id: z
    .string({ error: "cart_id is required, once" })
    .trim()
    .min(1, "cart_id is required")
    .max(100, "cart_id is not a cart id")
    .regex(/^[A-Za-z0-9_-]+$/, "cart_id is not a cart id"),
  near: z
    .string({ error: "near is the shopper's position once, as near=latitude,longitude (near=51.4613,-0.1156)" })
    .refine((value) => parseNear(value) !== null, {
      error: "near must be the shopper's position as near=latitude,longitude (near=51.4613,-0.1156)",
    })
    .optional(),
})

/** Answers a `LastmileRatesResponse`, sent as the JSON kept for the cart's state. */
export async function GET(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const parsed = ratesQuerySchema.safeParse(req.query)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((i) => i.message).join("; "))
  }
  const state = CheckoutAnswersService.of(req.scope).cartRatesState()
  const near = parsed.data.near ? parseNear(parsed.data.near) : null
  const { body } = await listCartRates(req.scope, parsed.data.cart_id, state, { near })
  // The answer as kept: an unchanged cart's JSON is not made again.
  res.type("json").send(body)
}
