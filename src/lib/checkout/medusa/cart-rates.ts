/**
 * The cart's lastmile rates, as the rates route answers them and the check of a shopper's choice reads them
 * (decisions 18, 40 and 41).
 */
import type { CalculateShippingOptionPriceDTO, CartShippingMethodDTO, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules, applyTranslations } from "@medusajs/framework/utils"
import { createHash } from "node:crypto"
import type { CheckoutCatalogue, CheckoutCatalogueCache, ListingAddress } from "./checkout-catalogue"
import { type CartForAdditions, cartPricingAdditionsOf } from "./read-pricing-additions"
import { type KeptAnswer, type RatesAnswers, answerTtlMs } from "../rates-answers"
import { type LastmileRatesResponse, type OptionPrice, toOptionRate } from "../option-rate"
import { type LostMethod, lostChoiceOf } from "../lost-choice"
import { type StoreRowPlace, nearestFirst, storesInPostcodeOrder } from "../store-rows"
import type { StorePosition } from "../../collection/pickup-settings"

/** Everything of the cart that changes its rates, in one joined statement: all an unchanged cart costs. */
const CART_READ = {
  select: [
    "id",
    "completed_at",
    "currency_code",
    "region_id",
    "sales_channel_id",
    "customer_id",
    "email",
    "locale",
    "items.id",
    "items.quantity",
    "items.variant_id",
    "items.variant_sku",
    "items.product_id",
    "items.requires_shipping",
    "shipping_address.*",
    "shipping_methods.shipping_option_id",
    "shipping_methods.amount",
    "shipping_methods.data",
  ],
  relations: ["items", "shipping_address", "shipping_methods"],
  // The ORM's own option (FindConfig.options): one statement with joins instead of one per relation.
  options: { strategy: "joined" },
}

interface CartLine {
  id: string
  quantity: number
  variant_id?: string | null
  variant_sku?: string | null
  product_id?: string | null
  requires_shipping?: boolean | null
}

interface CartRow extends CartForAdditions {
  id: string
  currency_code: string
  sales_channel_id?: string | null
  customer_id?: string | null
  locale?: string | null
  items?: (CartLine | null)[] | null
  shipping_address?: (ListingAddress & Record<string, unknown>) | null
}

export interface CartRatesState {
  answers: RatesAnswers
  catalogue: CheckoutCatalogueCache
  /** How long one quote serves a cart state (the provider's `quote_cache_ttl_seconds`); 0 keeps nothing. */
  quoteTtlMs: number
}

/**
 * The cart's answer, kept per cart state (decision 41). With `near` (the shopper's position, from the storefront),
 * the kept answer's store rows are ordered by their distance from it (decision 66): a view of the same answer, so a
 * position changes no price and no kept state.
 */
export async function listCartRates(
  container: MedusaContainer,
  cartId: string,
  state: CartRatesState,
  { near }: { near?: StorePosition | null } = {}
): Promise<KeptAnswer> {
  const kept = await keptCartRates(container, cartId, state)
  if (!near) {
    return kept
  }
  const catalogue = await state.catalogue.read(container)
  const positions = new Map([...catalogue.options.values()].map((option) => [option.id, option.position]))
  const answer = JSON.parse(kept.body) as LastmileRatesResponse
  return { state: kept.state, body: JSON.stringify(nearestFirst(answer, near, positions)) }
}

async function keptCartRates(container: MedusaContainer, cartId: string, state: CartRatesState): Promise<KeptAnswer> {
  const [cart] = (await container.resolve(Modules.CART).listCarts({ id: cartId }, CART_READ)) as CartRow[]
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
  const catalogue = await state.catalogue.read(container)
  const price = async () => {
    const answer = await priceCart(container, cart, catalogue, state.catalogue)
    return { answer, ttlMs: answerTtlMs(answer, state.quoteTtlMs, Date.now()) }
  }
  if (state.quoteTtlMs <= 0) {
    const { answer } = await price()
    return { state: "", body: JSON.stringify(answer) }
  }
  return state.answers.get(cart.id, stateKey(cart, catalogue.version), price)
}

async function priceCart(
  container: MedusaContainer,
  cart: CartRow,
  held: CheckoutCatalogue,
  cache: CheckoutCatalogueCache
): Promise<LastmileRatesResponse> {
  if (!cart.sales_channel_id) {
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `Cart ${cart.id} has no sales channel: it has no shipping options.`
    )
  }
  const products = linesOf(cart).flatMap((line) => (line.variant_id && line.product_id ? [line.product_id] : []))
  const [listed, profiles, additions] = await Promise.all([
    held.listed(cart.sales_channel_id, cart.shipping_address),
    held.shippingProfiles(products),
    cartPricingAdditionsOf(container, { ...cart, email: await emailOf(container, cart) }, cache, held),
  ])
  let catalogue = held
  if (listed.some((id) => !catalogue.options.has(id))) {
    // An option younger than the catalogue: read the store again.
    cache.clear()
    catalogue = await cache.read(container)
  }
  const options = listed.flatMap((id) => {
    const option = catalogue.options.get(id)
    return option && option.price_type === "calculated" && option.kind !== "return" ? [option] : []
  })
  const lines = linesOf(cart).map((line) => ({
    ...line,
    variant: line.variant_id
      ? { id: line.variant_id, product: { shipping_profile: { id: profiles.get(line.product_id ?? "") ?? null } } }
      : null,
  }))
  // As Medusa's workflow prices them: the cart, the hook's additions, the lines of the option's shipping profile.
  const prices: OptionPrice[] = options.length
    ? await container.resolve(Modules.FULFILLMENT).calculateShippingOptionsPrices(
        options.map((option): CalculateShippingOptionPriceDTO => {
          const context = {
            ...additions,
            ...cart,
            items: option.shipping_profile_id
              ? lines.filter((line) => line.variant?.product.shipping_profile.id === option.shipping_profile_id)
              : [],
            from_location: option.location,
          }
          return {
            id: option.id,
            provider_id: option.provider_id,
            optionData: option.data,
            data: {},
            // Medusa's type also asks for a return's or claim's ids, which a cart's pricing (its own workflow's too) has not.
            context: context as unknown as CalculateShippingOptionPriceDTO["context"],
          }
        })
      )
    : []
  const shown = options.map(({ id, name, kind, location }) => ({ id, name, kind, location }))
  // Names in the cart's locale, as Medusa's own listing translates them (nothing unless translation is on).
  await applyTranslations({ localeCode: cart.locale ?? undefined, objects: shown, container })
  const places = new Map<string, StoreRowPlace>(shown.map((o) => [o.id, o.location?.address ?? null]))
  // Deliveries first by name, then the stores in the shopper's postcode district, its area, the rest (decision 66).
  const rates = storesInPostcodeOrder(
    shown.map((option, i) => toOptionRate(option, prices[i] ?? {}, cart.currency_code)),
    cart.shipping_address ?? null,
    places
  )
  return {
    cart_id: cart.id,
    currency_code: cart.currency_code,
    eligibility: rates.some((r) => r.eligibility === "PARTIAL")
      ? "PARTIAL"
      : (rates.find((r) => r.eligibility)?.eligibility ?? null),
    rates,
    lost_choice: lostChoiceOf(await lostMethodOf(container, cart), rates, cart.currency_code),
  }
}

/**
 * The method the cart's last change removed, while the cart holds none (decision 58): Medusa's refresh removes a
 * method by soft-deleting it, so the latest removed one is still there to say what the shopper had chosen. A cart
 * that holds a method, or whose latest removed method is another provider's, lost nothing of lastmile's. Read only
 * when a new state is priced and the cart holds no method: an unchanged cart costs nothing more.
 */
async function lostMethodOf(container: MedusaContainer, cart: CartRow): Promise<LostMethod | null> {
  if (((cart.shipping_methods ?? []) as unknown[]).some(Boolean)) {
    return null
  }
  const [latest]: (CartShippingMethodDTO & { deleted_at?: Date | string | null })[] = await container
    .resolve(Modules.CART)
    .listShippingMethods(
      { cart_id: cart.id },
      {
        select: ["id", "shipping_option_id", "name", "amount", "data", "deleted_at"],
        withDeleted: true,
        // PostgreSQL sorts NULL first when descending: a method added since the cart was read wins, and is not lost.
        order: { deleted_at: "DESC" },
        take: 1,
      }
    )
  return latest?.deleted_at
    ? {
        shipping_option_id: latest.shipping_option_id ?? null,
        name: latest.name ?? null,
        amount: latest.amount === undefined || latest.amount === null ? null : Number(latest.amount),
        data: latest.data ?? null,
      }
    : null
}

/** The cart's email, else its customer's (read only then). */
async function emailOf(container: MedusaContainer, cart: CartRow): Promise<string | null> {
  if (cart.email || !cart.customer_id) {
    return cart.email ?? null
  }
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "customer",
    fields: ["email"],
    filters: { id: cart.customer_id },
  })
  return data[0]?.email ?? null
}

/** The cart state and catalogue version: any edit to the cart or the store's options gives another key. */
function stateKey(cart: CartRow, version: number): string {
  const items = linesOf(cart).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const state = JSON.stringify([version, { ...cart, items }])
  return createHash("sha256").update(state).digest("base64url")
}

function linesOf(cart: CartRow): CartLine[] {
  return (cart.items ?? []).filter((item): item is CartLine => item !== null)
}
