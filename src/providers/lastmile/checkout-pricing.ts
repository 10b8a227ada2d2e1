/**
 * Prices lastmile options at checkout from one quote per cart state. Every
 * option of a cart reads its rate from the same cached (or in-flight) quote;
 * nothing here throws, because an exception on the cart path fails the
 * shopper's add-to-cart.
 */
import type { LastmileClient, ServiceQuote } from "../../lib/service-client"
import { LastmileError } from "../../lib/service-client"
import type { LastmileFulfillmentOption } from "./fulfillment-options"
import { type MedusaAddressLike, type MedusaLineLike, type QuoteInputProblem, buildQuoteRequest } from "./quote-request"
import { QuoteCache, fingerprint } from "./quote-cache"
import { type RateChoice, type StoreDescription, selectCollectionRate, selectDeliveryRate } from "./rate-selection"

export interface CartPricingContext {
  cartId: string
  currencyCode: string
  items: MedusaLineLike[]
  shippingAddress?: MedusaAddressLike | null
  email?: string | null
  /** The stock location of the option being priced. */
  location?: {
    id?: string
    address?: (MedusaAddressLike & { metadata?: Record<string, unknown> | null }) | null
  } | null
}

export type PricingOutcome =
  | RateChoice
  | { ok: false; reason: "input_incomplete"; detail: string; problems: QuoteInputProblem[] }
  | { ok: false; reason: "service_unavailable"; detail: string }
  | { ok: false; reason: "store_not_mapped"; detail: string }

/** The store's id at the service: `address.metadata.external_location_id`, else the stock location id. */
export function storeExternalId(location: CartPricingContext["location"]): string | undefined {
  const fromMetadata = location?.address?.metadata?.external_location_id
  if (typeof fromMetadata === "string" && fromMetadata.trim()) {
    return fromMetadata.trim()
  }
  return location?.id ?? undefined
}

export class CheckoutPricer {
  constructor(
    private readonly client: LastmileClient,
    private readonly cache: QuoteCache<ServiceQuote>,
    private readonly quoteDeliveryType: string,
    private readonly stores: () => StoreDescription[] = () => []
  ) {}

  async price(option: LastmileFulfillmentOption, context: CartPricingContext): Promise<PricingOutcome> {
    const built = buildQuoteRequest({
      merchantOrderId: context.cartId,
      merchantOrderName: context.cartId,
      deliveryType: this.quoteDeliveryType,
      items: context.items,
      shippingAddress: context.shippingAddress,
      email: context.email,
      collectionAddress: context.location?.address,
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
    if (option.kind === "collection") {
      const externalId = storeExternalId(context.location)
      if (!externalId) {
        return { ok: false, reason: "store_not_mapped", detail: "the option has no stock location" }
      }
      return selectCollectionRate(outcome.value, externalId, context.currencyCode, this.stores())
    }
    return selectDeliveryRate(
      outcome.value,
      option.delivery_type ?? this.quoteDeliveryType,
      this.quoteDeliveryType,
      context.currencyCode
    )
  }
}
