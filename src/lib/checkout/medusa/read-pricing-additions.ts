/**
 * What the plugin adds to Medusa's shipping pricing contexts, read on the server (decision 21): the email, the
 * dispatch address, the cart's methods as stored, and an order's address and items for a replacement.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { ChosenMethod, LastmilePricingContext, OrderPricingSubject } from "../pricing-additions"
import type { MedusaLineLike } from "../quote-request"
import { readShippingMethodData } from "../../contracts/plugin-data"
import type { CheckoutCatalogue, CheckoutCatalogueCache } from "./checkout-catalogue"

/** A cart's shipping method as read for the context. */
type CartMethodRow = { shipping_option_id?: string | null; amount?: unknown; data?: unknown }

/** The cart fields the additions need, for callers that read the cart themselves. */
export const CART_PRICING_FIELDS = [
  "id",
  "completed_at",
  "email",
  "customer.email",
  "shipping_methods.shipping_option_id",
  "shipping_methods.amount",
  "shipping_methods.data",
]

export interface CartForAdditions {
  completed_at?: unknown
  email?: string | null
  customer?: { email?: string | null } | null
  shipping_methods?: unknown
}

export async function cartPricingAdditions(
  container: MedusaContainer,
  cartId: string | undefined,
  catalogue: CheckoutCatalogueCache
): Promise<LastmilePricingContext> {
  if (!cartId) {
    return {}
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "cart", fields: CART_PRICING_FIELDS, filters: { id: cartId } })
  const cart = data[0] as CartForAdditions | undefined
  return cart ? cartPricingAdditionsOf(container, cart, catalogue) : {}
}

/** The same additions for a cart already read with `CART_PRICING_FIELDS` (or the rates route's fields). */
export async function cartPricingAdditionsOf(
  container: MedusaContainer,
  cart: CartForAdditions,
  cache: CheckoutCatalogueCache,
  held?: CheckoutCatalogue
): Promise<LastmilePricingContext> {
  if (cart.completed_at) {
    // An order now: /calculate and the options list may still be asked, but nothing is quoted for it.
    return { lastmile_cart_completed: true }
  }
  const methods = ((cart.shipping_methods ?? []) as (CartMethodRow | null)[]).filter(
    (m): m is CartMethodRow => !!m?.shipping_option_id && !!readShippingMethodData(m.data)
  )
  let catalogue = held ?? (await cache.read(container))
  if (methods.some((m) => !catalogue.options.has(m.shipping_option_id!))) {
    // A lastmile option younger than the catalogue: read the store again.
    cache.clear()
    catalogue = await cache.read(container)
  }
  return {
    lastmile_customer_email: cart.email ?? cart.customer?.email ?? null,
    lastmile_dispatch_address: catalogue.dispatch,
    // With each method's fulfillment option and location.
    lastmile_chosen_methods: methods.flatMap((method): ChosenMethod[] => {
      const option = catalogue.options.get(method.shipping_option_id!)
      const stored = readShippingMethodData(method.data)
      if (!option || !stored) {
        return []
      }
      return [
        {
          option_id: option.option_id,
          location_id: option.location?.id ?? null,
          amount: Number(method.amount),
          rate_code: stored.rateCode ?? null,
          rate_name: stored.rateName ?? null,
          rate_chosen: stored.rateChosen === true,
          description: stored.description ?? null,
          window: stored.window ?? null,
          quoted_at: stored.quotedAt ?? null,
          quoted_for: stored.quotedFor ?? null,
          fallback: stored.fallback === true,
        },
      ]
    }),
  }
}

/** What Medusa's order pricing hooks hand over (`fetchShippingOptionForOrderWorkflow`, `maybeRefreshShippingMethodsWorkflow`). */
export type OrderPricingInput = { order_id?: string; custom_amount?: unknown; context?: Record<string, unknown> | null }

/**
 * For an exchange's or a claim's outbound method: the order's address and
 * email, and the replacement's own items (Medusa's order context has the
 * address as an id only, and the order's old items). Nothing for a return's
 * method (the lastmile return option has a flat price).
 */
export async function orderPricingAdditions(
  container: MedusaContainer,
  input: OrderPricingInput,
  catalogue: CheckoutCatalogueCache
): Promise<LastmilePricingContext> {
  const context = input.context ?? {}
  const referenceId = typeof context.exchange_id === "string" ? context.exchange_id : context.claim_id
  const refs = (context.exchange_items ?? context.claim_items) as { id?: unknown; quantity?: unknown }[] | undefined
  if (!input.order_id || typeof referenceId !== "string" || !Array.isArray(refs)) {
    return {}
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const itemIds = refs.flatMap((r) => (typeof r.id === "string" ? [r.id] : []))
  const [orders, lines, index] = await Promise.all([
    query.graph({
      entity: "order",
      fields: ["id", "currency_code", "email", "customer.email", "shipping_address.*"],
      filters: { id: input.order_id },
    }),
    itemIds.length
      ? query.graph({
          entity: "order_line_item",
          fields: ["id", "variant_id", "variant_sku", "requires_shipping"],
          filters: { id: itemIds },
        })
      : Promise.resolve({ data: [] }),
    catalogue.read(container),
  ])
  const order = orders.data[0]
  if (!order) {
    return {}
  }
  const byId = new Map((lines.data as (MedusaLineLike & { id: string })[]).map((l) => [l.id, l]))
  const items = refs.flatMap((ref): MedusaLineLike[] => {
    const line = typeof ref.id === "string" ? byId.get(ref.id) : undefined
    return line ? [{ ...line, quantity: Number(ref.quantity ?? 1) }] : []
  })
  const subject: OrderPricingSubject = {
    order_id: order.id,
    reference_id: referenceId,
    currency_code: order.currency_code,
    shipping_address: order.shipping_address ?? null,
    items,
    custom_amount:
      input.custom_amount === undefined || input.custom_amount === null ? null : Number(input.custom_amount),
  }
  return {
    lastmile_customer_email: order.email ?? order.customer?.email ?? null,
    lastmile_dispatch_address: index.dispatch,
    lastmile_order: subject,
  }
}
