/**
 * Prices lastmile options at checkout from one quote per cart state, each option once (decisions 9 and 42); nothing
 * here throws, since an exception on the cart path fails the shopper's add-to-cart.
 */
import type { LastmileClient, QuoteRequest, ServiceQuote } from "../../lib/service-client"
import { LastmileError, isServiceOutage } from "../../lib/service-client"
import { type LastmileFulfillmentOption, quoteDeliveryTypeOf } from "../../lib/contracts/fulfillment-options"
import { type MedusaAddressLike, type MedusaLineLike, buildQuoteRequest } from "../../lib/checkout/quote-request"
import type { ResolvedProviderOptions } from "../../lib/options/provider-options"
import { type HeldQuote, QuoteCache, fingerprint } from "./quote-cache"
import type { PricingResult } from "../../lib/checkout/pricing-result"
import { type StockLocationLike, storeExternalId } from "../../lib/store/store-identity"
import {
  type RateWish,
  needsStoreDirectory,
  selectCollectionRate,
  selectDeliveryRate,
} from "../../lib/checkout/rate-selection"
import type { StoreDirectory } from "./store-directory"
import type { ServiceRate } from "../../lib/contracts/service-shapes"
import type { StoreDescription } from "../../lib/checkout/rate-selection"
import { readPickupSettings } from "../../lib/collection/pickup-settings"
import { storeCalendarOf, withOpenDayReadiness } from "../../lib/collection/readiness"

export interface CartPricingContext {
  cartId: string
  currencyCode: string
  items: MedusaLineLike[]
  shippingAddress?: MedusaAddressLike | null
  email?: string | null
  /** The stock location of the option being priced. */
  location?: StockLocationLike | null
  /** The quote's collection address (from the plugin's pricing-context hook); else the option's location's. */
  dispatchAddress?: MedusaAddressLike | null
}

/** The first delivery type's quote also prices collection; `quoteBudgetMs` bounds a whole pricing, quote included. */
type PricerOptions = Pick<
  ResolvedProviderOptions,
  "deliveryTypes" | "productIdSource" | "deliveryRateRule" | "quoteBudgetMs"
>

export class CheckoutPricer {
  constructor(
    private readonly client: LastmileClient,
    private readonly cache: QuoteCache<ServiceQuote, PricingResult>,
    /** The service's store list, to attribute collection rates that do not name their store. */
    private readonly stores: StoreDirectory,
    private readonly options: PricerOptions
  ) {}

  /** A delivery option is quoted for its own type (a quote per cart state and type); collection rides on the first. */
  async price(option: LastmileFulfillmentOption, context: CartPricingContext, wish?: RateWish): Promise<PricingResult> {
    const deadline = Date.now() + this.options.quoteBudgetMs
    const deliveryType = quoteDeliveryTypeOf(option, this.options.deliveryTypes[0])
    const state = this.stateOf(context, deliveryType)
    if (!state.ok) {
      return state.incomplete
    }
    const held = await this.cache.get(state.key, () => this.client.quote(state.request))
    const key = offerKey(option, context, wish)
    let offer = held.offers.get(key)
    if (!offer) {
      offer = this.offer(option, context, held, deliveryType, wish, deadline)
      held.offers.set(key, offer)
      // A store the held store list could not place is judged again on the next ask, not for the quote's life.
      const forget = () => held.offers.delete(key)
      void offer.then((result) => (!result.ok && result.reason === "store_ambiguous" ? forget() : undefined), forget)
    }
    return offer
  }

  /**
   * The lines `option` was priced with: Medusa prices with the lines of the option's shipping profile but checks
   * the choice with the whole cart. The profile whose quote holds an offer for it is the one the shopper was shown.
   */
  linesPricedFor(option: LastmileFulfillmentOption, context: CartPricingContext): MedusaLineLike[] {
    const byProfile = new Map<string | undefined, MedusaLineLike[]>()
    for (const line of context.items) {
      const profile = line.variant?.product?.shipping_profile?.id ?? undefined
      byProfile.set(profile, [...(byProfile.get(profile) ?? []), line])
    }
    if (byProfile.size > 1) {
      const deliveryType = quoteDeliveryTypeOf(option, this.options.deliveryTypes[0])
      const prefix = offerKey(option, context)
      for (const lines of byProfile.values()) {
        const state = this.stateOf({ ...context, items: lines }, deliveryType)
        const held = state.ok ? this.cache.peek(state.key) : undefined
        if (held && [...held.offers.keys()].some((key) => key.startsWith(prefix))) {
          return lines
        }
      }
    }
    return context.items
  }

  /** The quote request of a cart state and its key: the state and type without the collection point, which every option of a type shares. */
  private stateOf(
    context: CartPricingContext,
    deliveryType: string
  ): { ok: true; request: QuoteRequest; key: string } | { ok: false; incomplete: PricingResult } {
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
      const detail = built.problems.map((p) => p.message).join(" ")
      return { ok: false, incomplete: { ok: false, reason: "input_incomplete", detail, problems: built.problems } }
    }
    const { collection: _collection, ...state } = built.request
    // Lines in a stable order: two reads of one cart may list them differently.
    const lines = [...(state.order.lineItems ?? [])].sort((a, b) =>
      a.merchantProductId < b.merchantProductId ? -1 : a.merchantProductId > b.merchantProductId ? 1 : 0
    )
    const key = fingerprint({
      state: { ...state, order: { ...state.order, lineItems: lines } },
      currency: context.currencyCode.toUpperCase(),
    })
    return { ok: true, request: built.request, key }
  }

  /** Once per cart state, option, stock location and rate asked for. */
  private async offer(
    option: LastmileFulfillmentOption,
    context: CartPricingContext,
    held: HeldQuote<ServiceQuote, PricingResult>,
    deliveryType: string,
    wish: RateWish | undefined,
    deadline: number
  ): Promise<PricingResult> {
    if (!held.ok) {
      const { error } = held
      const detail = error instanceof LastmileError ? error.message : "the delivery service could not be reached"
      return { ok: false, reason: isServiceOutage(error) ? "service_unavailable" : "service_refused", detail, error }
    }
    const quote = held.value
    const read = { eligibility: quote.eligibility, quotedAt: held.at }
    if (option.kind === "collection") {
      const externalId = storeExternalId(context.location)
      if (!externalId) {
        return { ok: false, reason: "store_not_mapped", detail: "the option has no stock location", ...read }
      }
      const stores = needsStoreDirectory(quote) ? await this.stores.get(deadline - Date.now()) : []
      let choice = selectCollectionRate(quote, externalId, context.currencyCode, stores)
      if (!choice.ok && choice.unplaced) {
        // A rate the list held cannot place may be this store, added or renamed since the list was read:
        // judge again with a fresh one. A store simply not quoted (removed, disabled) spends no read.
        const fresh = await this.stores.refreshNow(deadline - Date.now())
        if (fresh) {
          choice = selectCollectionRate(quote, externalId, context.currencyCode, fresh)
        }
      }
      const { unplaced: _unplaced, ...result } = choice
      const rate = result.ok
        ? await this.readinessShown(result.rate, context.location, externalId, stores, deadline)
        : null
      return { ...result, ...(rate ? { rate } : {}), ...read, merchantLocationId: externalId }
    }
    const choice = selectDeliveryRate(quote, deliveryType, context.currencyCode, {
      rule: this.options.deliveryRateRule,
      wish,
    })
    return { ...choice, ...read }
  }

  /**
   * A store's rate as the shopper is told it: ready on its next open day when the service's readiness falls on one
   * of the store's closed dates (decision 65). The dates ride on the location Medusa hands the provider; the store's
   * hours come from the list held, read within the quote's budget the first time a closed date needs them.
   */
  private async readinessShown(
    rate: ServiceRate,
    location: StockLocationLike | null | undefined,
    externalId: string,
    held: StoreDescription[],
    deadline: number
  ): Promise<ServiceRate> {
    const { closed_dates } = readPickupSettings(location?.address?.metadata)
    if (!closed_dates.length || !rate.window) {
      return rate
    }
    const stores = held.length ? held : await this.stores.get(deadline - Date.now())
    const hours = stores.find((store) => store.externalLocationId === externalId)?.operatingHours
    return withOpenDayReadiness(rate, storeCalendarOf(hours, closed_dates))
  }
}

/** Which offer of a quote a pricing is: the option, its store, and the rate asked for (none: the option's prefix). */
function offerKey(option: LastmileFulfillmentOption, context: CartPricingContext, wish?: RateWish): string {
  // A store's closed dates change its readiness: an offer priced before the merchant set them is not reused.
  const closed =
    option.kind === "collection" ? readPickupSettings(context.location?.address?.metadata).closed_dates : []
  const prefix = `${option.id}\u0000${context.location?.id ?? ""}${closed.length ? `|${closed.join(",")}` : ""}\u0000`
  return wish ? `${prefix}${wish.rateCode ?? ""}\u0000${wish.name ?? ""}\u0000${wish.chosen ? 1 : 0}` : prefix
}
