/**
 * What the plugin adds to Medusa's shipping pricing contexts (the hooks in
 * src/workflows/hooks register it): the shopper's email and the dispatch
 * location's address, which Medusa's context lacks; the cart's lastmile
 * methods as the server stored them, which is where a kept price and a held
 * rate come from (never from a request's `data`); and, for an order's method
 * (an exchange's or a claim's replacement), the order's address and the
 * replacement's items, which Medusa's order context lacks.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { optionKindOf } from "../../contracts/fulfillment-options"
import { lastmileProviderId } from "../../options/medusa/provider-id"
import { isDispatchOption, pickDispatchLocation } from "../../store/dispatch"
import type { ChosenMethod, LastmilePricingContext, OrderPricingSubject } from "../pricing-additions"
import type { MedusaAddressLike, MedusaLineLike } from "../quote-request"
import { readShippingMethodData } from "../../contracts/plugin-data"
import type { ExpiringValue } from "../../support/expiring-value"

/**
 * The store's lastmile shipping options as checkout needs them: the dispatch
 * address, and each option's fulfillment option and stock location. Asked
 * for on every cart change, so read at most once a minute.
 */
export interface LastmileOptionIndex {
  dispatch: MedusaAddressLike | null
  /** By shipping option id. */
  options: Map<string, IndexedOption>
}

interface IndexedOption {
  option_id: string
  location_id: string | null
}

export type LastmileOptionsCache = ExpiringValue<LastmileOptionIndex>

/** A cart's shipping method as read for the context. */
interface CartMethodRow {
  shipping_option_id?: string | null
  amount?: unknown
  data?: unknown
}

interface OptionRow {
  id: string
  provider_id?: string | null
  data?: Record<string, unknown> | null
  service_zone?: {
    fulfillment_set?: {
      type?: string | null
      location?: { id: string; address?: MedusaAddressLike | null } | null
    } | null
  } | null
}

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

export async function cartPricingAdditions(
  container: MedusaContainer,
  cartId: string | undefined,
  optionIndex: LastmileOptionsCache
): Promise<LastmilePricingContext> {
  if (!cartId) {
    return {}
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "cart", fields: CART_PRICING_FIELDS, filters: { id: cartId } })
  const cart = data[0] as
    | {
        id: string
        completed_at?: unknown
        email?: string | null
        customer?: { email?: string | null } | null
        shipping_methods?: unknown
      }
    | undefined
  if (!cart) {
    return {}
  }
  return cartPricingAdditionsOf(container, cart, optionIndex)
}

/** The same additions for a cart already read with `CART_PRICING_FIELDS`. */
export async function cartPricingAdditionsOf(
  container: MedusaContainer,
  cart: {
    completed_at?: unknown
    email?: string | null
    customer?: { email?: string | null } | null
    shipping_methods?: unknown
  },
  optionIndex: LastmileOptionsCache
): Promise<LastmilePricingContext> {
  if (cart.completed_at) {
    // An order now: /calculate and the options list may still be asked, but nothing is quoted for it.
    return { lastmile_cart_completed: true }
  }
  const methods = ((cart.shipping_methods ?? []) as (CartMethodRow | null)[]).flatMap((m) => (m ? [m] : []))
  const index = await optionIndex.get(() => readLastmileOptions(container))
  return {
    lastmile_customer_email: cart.email ?? cart.customer?.email ?? null,
    lastmile_dispatch_address: index.dispatch,
    lastmile_chosen_methods: await chosenMethods(container, methods, index),
  }
}

/**
 * The cart's lastmile methods, with their shipping option's fulfillment
 * option and location, from the index; an option younger than the index is
 * read on its own.
 */
async function chosenMethods(
  container: MedusaContainer,
  methods: CartMethodRow[],
  index: LastmileOptionIndex
): Promise<ChosenMethod[]> {
  const lastmile = methods.filter((m) => m.shipping_option_id && readShippingMethodData(m.data))
  const unknown = [...new Set(lastmile.map((m) => m.shipping_option_id!).filter((id) => !index.options.has(id)))]
  const options = unknown.length
    ? new Map([...index.options, ...(await readOptions(container, { id: unknown }))])
    : index.options
  return lastmile.flatMap((method): ChosenMethod[] => {
    const option = options.get(method.shipping_option_id!)
    const stored = readShippingMethodData(method.data)
    if (!option || !stored) {
      return []
    }
    return [
      {
        option_id: option.option_id,
        location_id: option.location_id,
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
  })
}

/** What Medusa's order pricing hooks hand over (`fetchShippingOptionForOrderWorkflow`, `maybeRefreshShippingMethodsWorkflow`). */
export interface OrderPricingInput {
  order_id?: string
  custom_amount?: unknown
  context?: Record<string, unknown> | null
}

interface ItemRef {
  id?: unknown
  quantity?: unknown
}

/**
 * For an exchange's or a claim's outbound method: the order's address and
 * email, and the replacement's own items (Medusa's order context has the
 * address as an id only, and the order's old items). Nothing for a return's
 * method (the lastmile return option has a flat price).
 */
export async function orderPricingAdditions(
  container: MedusaContainer,
  input: OrderPricingInput,
  optionIndex: LastmileOptionsCache
): Promise<LastmilePricingContext> {
  const context = input.context ?? {}
  const referenceId = typeof context.exchange_id === "string" ? context.exchange_id : context.claim_id
  const refs = (context.exchange_items ?? context.claim_items) as ItemRef[] | undefined
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
    optionIndex.get(() => readLastmileOptions(container)),
  ])
  const order = orders.data[0] as
    | {
        id: string
        currency_code: string
        email?: string | null
        customer?: { email?: string | null } | null
        shipping_address?: MedusaAddressLike | null
      }
    | undefined
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

/** Every lastmile shipping option of the store, in one read: the index checkout prices from. */
async function readLastmileOptions(container: MedusaContainer): Promise<LastmileOptionIndex> {
  const rows = await readOptionRows(container, {})
  return { dispatch: dispatchAddress(rows), options: indexed(rows) }
}

async function readOptions(container: MedusaContainer, filters: { id: string[] }): Promise<Map<string, IndexedOption>> {
  return indexed(await readOptionRows(container, filters))
}

async function readOptionRows(container: MedusaContainer, filters: { id?: string[] }): Promise<OptionRow[]> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "shipping_option",
    fields: [
      "id",
      "provider_id",
      "data",
      "service_zone.fulfillment_set.type",
      "service_zone.fulfillment_set.location.id",
      "service_zone.fulfillment_set.location.address.*",
    ],
    filters: { ...filters, provider_id: (await lastmileProviderId(container)) ?? [] },
  })
  return data as OptionRow[]
}

function indexed(rows: OptionRow[]): Map<string, IndexedOption> {
  return new Map(
    rows.flatMap((o) =>
      typeof o.data?.id === "string"
        ? [[o.id, { option_id: o.data.id, location_id: o.service_zone?.fulfillment_set?.location?.id ?? null }]]
        : []
    )
  )
}

/** The address of the dispatch location: the location of a lastmile delivery option. */
function dispatchAddress(options: OptionRow[]): MedusaAddressLike | null {
  const locations = options
    .filter((o) => isDispatchOption(o.service_zone?.fulfillment_set?.type, optionKindOf(o.data?.id)))
    .map((o) => o.service_zone?.fulfillment_set?.location)
    .filter((l): l is { id: string; address?: MedusaAddressLike | null } => !!l?.address)
  const address = pickDispatchLocation(locations)?.location.address
  return address ? addressOnly(address) : null
}

/** The address fields a quote sends, nothing else (no ids, no metadata). */
function addressOnly(address: MedusaAddressLike): MedusaAddressLike {
  return {
    address_1: address.address_1 ?? null,
    address_2: address.address_2 ?? null,
    city: address.city ?? null,
    postal_code: address.postal_code ?? null,
    country_code: address.country_code ?? null,
  }
}
