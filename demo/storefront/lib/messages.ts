/** What the shopper reads when something fails: Medusa's or the plugin's sentence, never a stack or a status code. */
import { toStorefrontError } from "medusa-plugin-lastmile-storefront"

/** A refusal the page was given in words (Medusa would not complete the cart, and said why). */
export class CheckoutRefusal extends Error {
  override name = "CheckoutRefusal"
}

export function shopperMessage(error: unknown): string {
  if (error instanceof CheckoutRefusal) {
    return error.message
  }
  // js-sdk's errors carry Medusa's message and status; anything else means no answer came back.
  return toStorefrontError(error).message
}
