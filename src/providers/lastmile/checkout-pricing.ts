/**
 * Prices lastmile options at checkout from one quote per cart state. Every
 * option of a cart reads its rate from the same cached (or in-flight) quote;
 * nothing here throws, because an exception on the cart path fails the
 * shopper's add-to-cart.
 */
import type { LastmileClient, ServiceQuote } from "../../lib/service-client"
import { LastmileError } from "../../lib/service-client"
import type { LastmileFulfillmentOption } from "./fulfillment-options"
import {
  type MedusaAddressLike,
  type MedusaLineLike,
  type MerchantProductIdSource,
  type QuoteInputProblem,
  buildQuoteRequest,
} from "./quote-request"
import { QuoteCache, fingerprint } from "./quote-cache"
import { type RateChoice, type StoreDescription, selectCollectionRate, selectDeliveryRate } from "./rate-selection"

export type StockLocationLike = {
  id?: string
  name?: string | null
  address?: (MedusaAddressLike & { metadata?: Record<string, unknown> | null }) | null
}

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

export type PricingOutcome =
  | RateChoice
  | { ok: false; reason: "input_incomplete"; detail: string; problems: QuoteInputProblem[] }
  | { ok: false; reason: "service_unavailable"; detail: string }
  | { ok: false; reason: "store_not_mapped"; detail: string }

export type PricingResult = PricingOutcome & {
  /** The quote's eligibility, when a quote was read. */
  eligibility?: string
  /** The store's external id, for a collection option. */
  merchantLocationId?: string
}

/** The store's id at the service: `address.metadata.external_location_id`, else the stock location id. */
export function storeExternalId(location: StockLocationLike | null | undefined): string | undefined {
  const fromMetadata = location?.address?.metadata?.external_location_id
  if (typeof fromMetadata === "string" && fromMetadata.trim()) {
    return fromMetadata.trim()
  }
  return location?.id ?? undefined
}

export interface CheckoutPricerOptions {
  /** The delivery type the checkout quote asks for. */
  quoteDeliveryType: string
  productIdSource?: MerchantProductIdSource
  /** The service's store list when the quote needs it to attribute collection rates. */
  storesFor?: (quote: ServiceQuote) => Promise<StoreDescription[]>
}

export class CheckoutPricer {
  constructor(
    private readonly client: LastmileClient,
    private readonly cache: QuoteCache<ServiceQuote>,
    private readonly options: CheckoutPricerOptions
  ) {}

  async price(option: LastmileFulfillmentOption, context: CartPricingContext): Promise<PricingResult> {
    const built = buildQuoteRequest({
      merchantOrderId: context.cartId,
      merchantOrderName: context.cartId,
      deliveryType: this.options.quoteDeliveryType,
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
    // The cart state, without the collection point: every option of the cart shares one quote.
    const { collection: _collection, ...state } = built.request
    const key = fingerprint({ state, currency: context.currencyCode.toUpperCase() })
    const outcome = await this.cache.get(key, () => this.client.quote(built.request))
    if (!outcome.ok) {
      const error = outcome.error
      return {
        ok: false,
        reason: "service_unavailable",
        detail: error instanceof LastmileError ? error.message : "the delivery service could not be reached",
      }
    }
    const quote = outcome.value
    const eligibility = quote.eligibility
    if (option.kind === "collection") {
      const externalId = storeExternalId(context.location)
      if (!externalId) {
        return { ok: false, reason: "store_not_mapped", detail: "the option has no stock location", eligibility }
      }
      const stores = this.options.storesFor ? await this.options.storesFor(quote) : []
      const choice = selectCollectionRate(quote, externalId, context.currencyCode, stores)
      return { ...choice, eligibility, merchantLocationId: externalId }
    }
    const choice = selectDeliveryRate(
      quote,
      option.delivery_type ?? this.options.quoteDeliveryType,
      this.options.quoteDeliveryType,
      context.currencyCode
    )
    return { ...choice, eligibility }
  }
}
