/**
 * Prices lastmile options at checkout from one quote per cart state. Every
 * option of a cart reads its rate from the same cached (or in-flight) quote;
 * nothing here throws, because an exception on the cart path fails the
 * shopper's add-to-cart.
 */
import type { LastmileClient, ServiceQuote } from "../../lib/service-client"
import { LastmileError, isServiceOutage } from "../../lib/service-client"
import { type LastmileFulfillmentOption, quoteDeliveryTypeOf } from "../../lib/contracts/fulfillment-options"
import {
  type MedusaAddressLike,
  type MedusaLineLike,
  type MerchantProductIdSource,
  buildQuoteRequest,
} from "../../lib/checkout/quote-request"
import { QuoteCache, fingerprint } from "./quote-cache"
import type { PricingResult } from "../../lib/checkout/pricing-result"
import { type StockLocationLike, storeExternalId } from "../../lib/store/store-identity"
import {
  type DeliveryRateRule,
  type RateWish,
  type StoreDescription,
  selectCollectionRate,
  selectDeliveryRate,
} from "../../lib/checkout/rate-selection"

export interface CartPricingContext {
  cartId: string
  currencyCode: string
  items: MedusaLineLike[]
  shippingAddress?: MedusaAddressLike | null
  email?: string | null
  /** The stock location of the option being priced. */
  location?: StockLocationLike | null
  /**
   * The dispatch location's address, sent as the quote's collection address
   * (added by the plugin's pricing-context hook). Without it, the option's
   * own location is used.
   */
  dispatchAddress?: MedusaAddressLike | null
}

export interface CheckoutPricerOptions {
  /** The delivery type whose quote also prices collection (the first configured one). */
  quoteDeliveryType: string
  productIdSource?: MerchantProductIdSource
  /** How a delivery option is priced when no rate was chosen. Default cheapest. */
  rateRule?: DeliveryRateRule
  /** The whole time a pricing may take; the quote has its own budget of the same length inside it. */
  budgetMs: number
  /** The service's store list, when the quote needs it to attribute collection rates; waits at most `waitMs`. */
  storesFor?: (quote: ServiceQuote, waitMs: number) => Promise<StoreDescription[]>
  /**
   * A fresh read of the store list, when a collection rate could not be
   * attributed with the one held (a store added, enabled or renamed at the
   * service since): single flight and throttled; waits at most `waitMs`.
   */
  refreshStores?: (waitMs: number) => Promise<StoreDescription[] | undefined>
}

export class CheckoutPricer {
  constructor(
    private readonly client: LastmileClient,
    private readonly cache: QuoteCache<ServiceQuote>,
    private readonly options: CheckoutPricerOptions
  ) {}

  /**
   * Prices one option. A delivery option is quoted for its own delivery type
   * (one quote per cart state per type); collection rides on the first
   * type's quote. `wish` names the rate a shipping method already holds.
   */
  async price(option: LastmileFulfillmentOption, context: CartPricingContext, wish?: RateWish): Promise<PricingResult> {
    const deadline = Date.now() + this.options.budgetMs
    const deliveryType = quoteDeliveryTypeOf(option, this.options.quoteDeliveryType)
    const built = buildQuoteRequest({
      merchantOrderId: context.cartId,
      merchantOrderName: context.cartId,
      deliveryType,
      items: context.items,
      shippingAddress: context.shippingAddress,
      email: context.email,
      collectionAddress: context.dispatchAddress ?? context.location?.address,
      productIdSource: this.options.productIdSource,
    })
    if (!built.ok) {
      return {
        ok: false,
        reason: "input_incomplete",
        detail: built.problems.map((p) => p.message).join(" "),
        problems: built.problems,
      }
    }
    // The cart state and type, without the collection point: every option of a type shares one quote.
    const { collection: _collection, ...state } = built.request
    // Lines in a stable order: two reads of one cart (the rates route's early quote, Medusa's workflow) may list them differently.
    const lines = [...(state.order.lineItems ?? [])].sort((a, b) =>
      a.merchantProductId < b.merchantProductId ? -1 : a.merchantProductId > b.merchantProductId ? 1 : 0
    )
    const key = fingerprint({
      state: { ...state, order: { ...state.order, lineItems: lines } },
      currency: context.currencyCode.toUpperCase(),
    })
    const outcome = await this.cache.get(key, () => this.client.quote(built.request))
    if (!outcome.ok) {
      const error = outcome.error
      const detail = error instanceof LastmileError ? error.message : "the delivery service could not be reached"
      return isServiceOutage(error)
        ? { ok: false, reason: "service_unavailable", detail, error }
        : { ok: false, reason: "service_refused", detail, error }
    }
    const quote = outcome.value
    const read = { eligibility: quote.eligibility, quotedAt: outcome.at }
    if (option.kind === "collection") {
      const externalId = storeExternalId(context.location)
      if (!externalId) {
        return { ok: false, reason: "store_not_mapped", detail: "the option has no stock location", ...read }
      }
      const stores = this.options.storesFor ? await this.options.storesFor(quote, deadline - Date.now()) : []
      let choice = selectCollectionRate(quote, externalId, context.currencyCode, stores)
      if (!choice.ok && choice.unplaced && this.options.refreshStores) {
        // A rate the list held cannot place may be this store, added or renamed since the list was read:
        // judge again with a fresh one. A store simply not quoted (removed, disabled) spends no read.
        const fresh = await this.options.refreshStores(deadline - Date.now())
        if (fresh) {
          choice = selectCollectionRate(quote, externalId, context.currencyCode, fresh)
        }
      }
      const { unplaced: _unplaced, ...result } = choice
      return { ...result, ...read, merchantLocationId: externalId }
    }
    const choice = selectDeliveryRate(quote, deliveryType, context.currencyCode, { rule: this.options.rateRule, wish })
    return { ...choice, ...read }
  }
}
