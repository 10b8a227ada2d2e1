/**
 * Adds what the lastmile quote needs and Medusa's pricing context lacks: the
 * shopper's email, and the address of the location delivery dispatches from
 * (sent as the quote's collection address, so every option of a cart is
 * priced from the same request).
 *
 * Medusa allows one handler per hook: with this plugin installed, the host app
 * cannot also consume `setCalculatedShippingPricingContext` on these two
 * workflows (the README says so).
 */
import { StepResponse } from "@medusajs/framework/workflows-sdk"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  calculateShippingOptionsPricesWorkflow,
  listShippingOptionsForCartWithPricingWorkflow,
} from "@medusajs/medusa/core-flows"
import { LASTMILE_PROVIDER_ID, optionKindOf } from "../../lib/lastmile/fulfillment-options"
import { isDispatchOption, pickDispatchLocation } from "../../lib/lastmile/dispatch"
import type { LastmilePricingContext } from "../../lib/lastmile/pricing-context"
import type { MedusaAddressLike } from "../../lib/lastmile/quote-request"

interface DeliveryOptionRow {
  id: string
  data?: Record<string, unknown> | null
  service_zone?: {
    fulfillment_set?: {
      type?: string | null
      location?: { id: string; address?: MedusaAddressLike | null } | null
    } | null
  } | null
}

export async function lastmilePricingContext(
  cartId: string | undefined,
  container: MedusaContainer
): Promise<LastmilePricingContext> {
  if (!cartId) {
    return {}
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [carts, dispatch] = await Promise.all([
    query.graph({ entity: "cart", fields: ["id", "email", "customer.email"], filters: { id: cartId } }),
    dispatchAddressOf(container),
  ])
  const cart = carts.data[0] as { email?: string | null; customer?: { email?: string | null } | null } | undefined
  return {
    lastmile_customer_email: cart?.email ?? cart?.customer?.email ?? null,
    lastmile_dispatch_address: dispatch,
  }
}

/** The same additions for a cart already read with its email (the rates route's): the cart is read again only when it has no email. */
export async function lastmilePricingContextOf(
  cart: { id: string; email?: string | null },
  container: MedusaContainer
): Promise<LastmilePricingContext> {
  if (!cart.email) {
    return lastmilePricingContext(cart.id, container)
  }
  return { lastmile_customer_email: cart.email, lastmile_dispatch_address: await dispatchAddressOf(container) }
}

// The dispatch location changes rarely and is asked for on every cart refresh: read it at most once a minute.
const DISPATCH_TTL_MS = 60_000
let dispatchCache: { at: number; value: Promise<MedusaAddressLike | null> } | undefined

function dispatchAddressOf(container: MedusaContainer): Promise<MedusaAddressLike | null> {
  const now = Date.now()
  if (!dispatchCache || now - dispatchCache.at > DISPATCH_TTL_MS) {
    const value = readDispatchAddress(container)
    dispatchCache = { at: now, value }
    // A failed read is not kept.
    value.catch(() => {
      if (dispatchCache?.value === value) {
        dispatchCache = undefined
      }
    })
  }
  return dispatchCache.value
}

async function readDispatchAddress(container: MedusaContainer): Promise<MedusaAddressLike | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const options = await query.graph({
    entity: "shipping_option",
    fields: [
      "id",
      "data",
      "service_zone.fulfillment_set.type",
      "service_zone.fulfillment_set.location.id",
      "service_zone.fulfillment_set.location.address.*",
    ],
    filters: { provider_id: LASTMILE_PROVIDER_ID },
  })
  return dispatchAddress(options.data as DeliveryOptionRow[])
}

/** The address of the dispatch location: the location of a lastmile delivery option. */
function dispatchAddress(options: DeliveryOptionRow[]): MedusaAddressLike | null {
  const locations = options
    .filter((o) => isDispatchOption(o.service_zone?.fulfillment_set?.type, optionKindOf(o.data?.id)))
    .map((o) => o.service_zone?.fulfillment_set?.location)
    .filter((l): l is { id: string; address?: MedusaAddressLike | null } => !!l?.address)
  const address = pickDispatchLocation(locations)?.location.address
  if (!address) {
    return null
  }
  return {
    address_1: address.address_1 ?? null,
    address_2: address.address_2 ?? null,
    city: address.city ?? null,
    postal_code: address.postal_code ?? null,
    country_code: address.country_code ?? null,
  }
}

listShippingOptionsForCartWithPricingWorkflow.hooks.setCalculatedShippingPricingContext(
  async ({ input }, { container }) => new StepResponse(await lastmilePricingContext(input.cart_id, container))
)

calculateShippingOptionsPricesWorkflow.hooks.setCalculatedShippingPricingContext(
  async ({ input }, { container }) => new StepResponse(await lastmilePricingContext(input.cart_id, container))
)
