/**
 * Keys the plugin adds to Medusa's shipping pricing context through the
 * `setCalculatedShippingPricingContext` hook (src/workflows/hooks). Medusa's
 * own context has neither the shopper's email nor the dispatch location.
 */
import type { MedusaAddressLike } from "./quote-request"

export interface LastmilePricingContext {
  /** The cart's email (the quote requires the customer's email). */
  lastmile_customer_email?: string | null
  /** The address of the location lastmile delivery dispatches from, sent as the quote's collection address. */
  lastmile_dispatch_address?: MedusaAddressLike | null
}
