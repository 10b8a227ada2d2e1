/**
 * The cart's lastmile rates, as `GET /store/lastmile/rates` answers them.
 * Medusa's `listShippingOptionsForCartWithPricingWorkflow` decides which
 * options the cart may use and prices them; around it (ARCHITECTURE.md,
 * decision 18):
 *
 * - the answer is kept per cart state until its oldest quote expires (a few
 *   seconds when something was priced without a quote), so a checkout page
 *   that asks again for an unchanged cart reads two rows, not the workflow;
 * - for a new state, the quote is asked for as soon as the cart is read, while
 *   the workflow is still reading the options, so the shopper waits for the
 *   quote and the workflow side by side rather than one after the other. The
 *   provider's single flight makes that one quote, which the workflow joins.
 */
import type { CalculateShippingOptionPriceDTO, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { listShippingOptionsForCartWithPricingWorkflow } from "@medusajs/medusa/core-flows"
import { LRUCache } from "lru-cache"
import { createHash } from "node:crypto"
import { isLastmileProviderId, optionKindOf } from "../../contracts/fulfillment-options"
import { lastmileProviderId } from "../../options/medusa/provider-id"
import { CART_PRICING_FIELDS, type LastmileOptionsCache, cartPricingAdditionsOf } from "./read-pricing-additions"
import { answerTtlMs } from "../answer-ttl"
import {
  type LastmileOptionRate,
  type LastmileRatesResponse,
  type PricedShippingOption,
  toOptionRate,
} from "../option-rate"

/**
 * The cart as Medusa's workflow hands it to a provider (`items.*`,
 * `shipping_address.*`), read by the same fields. Kept loose: with
 * `.medusa/types` generated, query types the row as the graph's `Cart`.
 */
interface CartRow {
  id: string
  email?: string | null
  currency_code: string
  shipping_address?: ({ country_code?: string | null } & Record<string, unknown>) | null
  items?: (({ id: string } & Record<string, unknown>) | null)[] | null
  [field: string]: unknown
}

interface LastmileOptionRow {
  id: string
  updated_at?: string | Date | null
  price_type?: string | null
  provider_id: string
  shipping_profile_id?: string | null
  data?: Record<string, unknown> | null
}

/**
 * What changes a cart's rates, read in one query: the lines, the address, the
 * email, region, channel and locale, and the lastmile method already chosen
 * (whose price is kept through an outage).
 */
const CART_STATE_FIELDS = [
  ...new Set([
    ...CART_PRICING_FIELDS,
    "customer_id",
    "currency_code",
    "region_id",
    "sales_channel_id",
    "locale",
    "items.*",
    // Which option's lines an item is (Medusa prices an option with the items of its shipping profile).
    "items.variant.product.shipping_profile.id",
    "shipping_address.*",
  ]),
]

const OPTION_FIELDS = ["id", "updated_at", "price_type", "provider_id", "shipping_profile_id", "data"]

interface TimedAnswer {
  answer: LastmileRatesResponse
  ttlMs: number
}

/** The answers kept per cart state (the plugin's module holds them, for the app's life). */
export type CartRateAnswers = LRUCache<string, LastmileRatesResponse, (() => Promise<TimedAnswer>) | undefined>

export function createCartRateAnswers(): CartRateAnswers {
  return new LRUCache<string, LastmileRatesResponse, (() => Promise<TimedAnswer>) | undefined>({
    max: 5_000,
    // A default only: each answer is given its own time to live below.
    ttl: 30_000,
    fetchMethod: async (_key, _stale, { context, options }) => {
      const { answer, ttlMs } = await context!()
      // Not kept at all when it expires now (a quote already at the end of its life).
      options.ttl = ttlMs > 0 ? ttlMs : 1
      return answer
    },
  })
}

export interface CartRatesState {
  answers: CartRateAnswers
  optionIndex: LastmileOptionsCache
  /** How long one quote serves a cart state (the provider's `quote_cache_ttl_seconds`); 0 keeps nothing. */
  quoteTtlMs: number
}

export async function listCartRates(
  container: MedusaContainer,
  cartId: string,
  state: CartRatesState
): Promise<LastmileRatesResponse> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const providerId = (await lastmileProviderId(container)) ?? []
  const [carts, options] = await Promise.all([
    query.graph({ entity: "cart", fields: CART_STATE_FIELDS, filters: { id: cartId } }),
    query.graph({ entity: "shipping_option", fields: OPTION_FIELDS, filters: { provider_id: providerId } }),
  ])
  const cart = carts.data[0] as CartRow | undefined
  if (!cart) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart with id: ${cartId} was not found`)
  }
  if (cart.completed_at) {
    // An order now: its shipping was settled at checkout, and a quote would only cost a call to the service.
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Cart ${cartId} is already completed: it has no shipping rates to choose from.`
    )
  }
  const lastmileOptions = options.data as LastmileOptionRow[]
  const quoteTtlMs = state.quoteTtlMs
  const compute = async (): Promise<TimedAnswer> => {
    const answer = await priceCart(container, cart, lastmileOptions, state.optionIndex)
    return { answer, ttlMs: answerTtlMs(answer, quoteTtlMs, Date.now()) }
  }
  if (quoteTtlMs <= 0) {
    return (await compute()).answer
  }
  const key = `${cartId}:${cartStateDigest(cart, lastmileOptions)}`
  // Concurrent asks for one state share one run; a failed run is not kept.
  const answer = await state.answers.fetch(key, { context: compute })
  return answer!
}

async function priceCart(
  container: MedusaContainer,
  cart: CartRow,
  options: LastmileOptionRow[],
  optionIndex: LastmileOptionsCache
): Promise<LastmileRatesResponse> {
  let rates: LastmileOptionRate[] = []
  if (options.length) {
    const early = quoteEarly(container, cart, options, optionIndex)
    const { result } = await listShippingOptionsForCartWithPricingWorkflow(container).run({
      input: { cart_id: cart.id, options: options.map((o) => ({ id: o.id })), is_return: false },
    })
    await early
    rates = (result as PricedShippingOption[])
      .filter((option) => isLastmileProviderId(option.provider_id))
      .map((option) => toOptionRate(option, cart.currency_code))
      .sort((a, b) => kindRank(a) - kindRank(b) || a.name.localeCompare(b.name))
  }
  return {
    cart_id: cart.id,
    currency_code: cart.currency_code,
    eligibility: rates.some((r) => r.eligibility === "PARTIAL")
      ? "PARTIAL"
      : (rates.find((r) => r.eligibility)?.eligibility ?? null),
    rates,
  }
}

/**
 * Starts the quote of each delivery option the cart's country is served by,
 * with the context Medusa's workflow will build (the same lines, address,
 * email and dispatch address), so the workflow's own pricing joins it. Its
 * prices are dropped; it never fails the answer.
 */
async function quoteEarly(
  container: MedusaContainer,
  cart: CartRow,
  options: LastmileOptionRow[],
  optionIndex: LastmileOptionsCache
): Promise<void> {
  const country = cart.shipping_address?.country_code?.toLowerCase()
  const calculated = options.filter((o) => o.price_type === "calculated" && optionKindOf(o.data?.id) === "delivery")
  if (!country || !calculated.length) {
    return
  }
  try {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    const [zones, additions] = await Promise.all([
      query.graph({
        entity: "shipping_option",
        fields: ["id", "service_zone.geo_zones.country_code"],
        filters: { id: calculated.map((o) => o.id) },
      }),
      cartPricingAdditionsOf(container, cart, optionIndex),
    ])
    // Only options whose service zone covers the cart's country: the workflow would not price the others.
    const served = new Set(
      (zones.data as { id: string; service_zone?: { geo_zones?: { country_code?: string | null }[] | null } | null }[])
        .filter((o) => (o.service_zone?.geo_zones ?? []).some((z) => z.country_code?.toLowerCase() === country))
        .map((o) => o.id)
    )
    const delivery = calculated.filter((o) => served.has(o.id))
    if (!delivery.length) {
      return
    }
    const profileOf = (item: Record<string, unknown>) =>
      (item.variant as { product?: { shipping_profile?: { id?: string } } } | null | undefined)?.product
        ?.shipping_profile?.id
    const fulfillment = container.resolve(Modules.FULFILLMENT)
    await fulfillment.calculateShippingOptionsPrices(
      delivery.map((option): CalculateShippingOptionPriceDTO => {
        // As Medusa's workflow builds it: the cart, the hook's additions, the lines of the option's shipping profile.
        const context = {
          ...additions,
          ...cart,
          items: linesOf(cart).filter((item) => profileOf(item) === option.shipping_profile_id),
        }
        return {
          id: option.id,
          provider_id: option.provider_id,
          optionData: option.data ?? {},
          data: {},
          // Medusa's type also asks for a return's or claim's ids, which a cart's pricing (its own workflow's too) has not;
          // the cart is read by the fields its workflow reads, but typed loosely (CartRow).
          context: context as unknown as CalculateShippingOptionPriceDTO["context"],
        }
      })
    )
  } catch {
    // Only a head start: the workflow prices the cart in any case.
  }
}

/** The cart state and the lastmile options as they are now; any edit to either gives another digest. */
function cartStateDigest(cart: CartRow, options: LastmileOptionRow[]): string {
  const items = linesOf(cart).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const state = JSON.stringify({
    cart: { ...cart, items },
    options: options.map((o) => [o.id, o.updated_at ?? null]).sort(),
  })
  return createHash("sha256").update(state).digest("base64url")
}

function linesOf(cart: CartRow): ({ id: string } & Record<string, unknown>)[] {
  return (cart.items ?? []).filter((item) => item !== null)
}

function kindRank(rate: LastmileOptionRate): number {
  return rate.type === "delivery" ? 0 : 1
}
