/**
 * The keys the plugin adds to Medusa's shipping pricing context (decision 21): everything read on the server, since
 * a pricing call's `data` comes from the client.
 */
import type { MedusaAddressLike, MedusaLineLike } from "./quote-request"

/** A lastmile shipping method the cart already has, as the server stored it. */
export interface ChosenMethod {
  /** The fulfillment option's id of the method's shipping option (`lastmile-next-day`). */
  option_id: string
  /** The stock location of the method's shipping option (the store, for a collection). */
  location_id: string | null
  /** What the shopper pays for it now, in major units of the cart's currency. */
  amount: number
  rate_code: string | null
  rate_name: string | null
  rate_chosen: boolean
  /** The rate's text and window as they were shown when it was chosen. */
  description: string | null
  window: { from: string; to: string } | null
  /** When its quote was made (ISO 8601); null when chosen at the fallback price. */
  quoted_at: string | null
  /** The cart state it was quoted for (`cartStateOf`); null for a method stored by an earlier version. */
  quoted_for: string | null
  fallback: boolean
}

/** An order's replacement or edit being priced (an exchange's or a claim's outbound method). */
export interface OrderPricingSubject {
  order_id: string
  /** The exchange or claim it belongs to. */
  reference_id: string | null
  currency_code: string
  shipping_address: MedusaAddressLike | null
  /** The items the method ships: the replacement's lines, with their variants. */
  items: MedusaLineLike[]
  /** The price the merchant set for the method, if any: it stands when no quote can price it. */
  custom_amount: number | null
}

export interface LastmilePricingContext {
  /** The cart's email (the quote requires the customer's email). */
  lastmile_customer_email?: string | null
  /** The address of the location lastmile delivery dispatches from, sent as the quote's collection address. */
  lastmile_dispatch_address?: MedusaAddressLike | null
  /** The cart's lastmile shipping methods, read on the server. */
  lastmile_chosen_methods?: ChosenMethod[]
  /** The cart is completed (an order): nothing is quoted for it any more. */
  lastmile_cart_completed?: boolean
  /** Set when an order's method is priced (exchange, claim): what Medusa's order context lacks. */
  lastmile_order?: OrderPricingSubject | null
}
