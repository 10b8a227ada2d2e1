import { AbstractFulfillmentProviderService, MedusaError } from "@medusajs/framework/utils"
import type {
  CalculateShippingOptionPriceDTO,
  CalculatedShippingOptionPrice,
  CreateShippingOptionDTO,
  Logger,
} from "@medusajs/framework/types"
import { LastmileClient, type ServiceQuote } from "../../lib/service-client"
import { type CartPricingContext, CheckoutPricer, type PricingOutcome } from "./checkout-pricing"
import { type LastmileFulfillmentOption, buildFulfillmentOptions } from "./fulfillment-options"
import { minorToMajor } from "./money"
import { QuoteCache } from "./quote-cache"
import {
  InvalidProviderOptionsError,
  type LastmileProviderOptions,
  type ResolvedProviderOptions,
  resolveProviderOptions,
} from "./options"

type InjectedDependencies = {
  logger: Logger
}

/**
 * The fulfillment provider `lastmile` (provider id `lastmile_lastmile`). It
 * lives in the Fulfillment module's container, so it maps Medusa objects to
 * service requests and nothing more: it cannot reach other modules.
 */
export class LastmileFulfillmentProviderService extends AbstractFulfillmentProviderService {
  static identifier = "lastmile"

  protected readonly logger_: Logger
  protected readonly options_: ResolvedProviderOptions
  protected readonly client_: LastmileClient
  protected readonly pricer_: CheckoutPricer
  private readonly fulfillmentOptions_: LastmileFulfillmentOption[]

  /** Runs at boot: a bad option stops the app with a message naming each problem. */
  static validateOptions(options: Record<string, unknown>): void {
    try {
      resolveProviderOptions(options)
    } catch (error) {
      if (error instanceof InvalidProviderOptionsError) {
        throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
      }
      throw error
    }
  }

  constructor({ logger }: InjectedDependencies, options: LastmileProviderOptions) {
    super()
    this.logger_ = logger
    this.options_ = resolveProviderOptions(options)
    this.client_ = new LastmileClient({
      apiKey: this.options_.apiKey,
      baseUrl: this.options_.baseUrl,
      timeouts: {
        quoteBudgetMs: this.options_.quoteBudgetMs,
        bookingMs: this.options_.bookingTimeoutMs,
        lookupMs: this.options_.lookupTimeoutMs,
      },
      logger,
    })
    this.fulfillmentOptions_ = buildFulfillmentOptions(this.options_.deliveryTypes)
    const cache = new QuoteCache<ServiceQuote>({
      ttlMs: this.options_.quoteCacheTtlSeconds * 1000,
      // A failed quote is retried at most every few seconds per cart state.
      failureTtlMs: Math.min(5000, this.options_.quoteCacheTtlSeconds * 1000),
    })
    this.pricer_ = new CheckoutPricer(this.client_, cache, this.options_.deliveryTypes[0])
  }

  /**
   * Prices an option from the cart's one quote. Never throws: an option the
   * service cannot price is returned without an amount, which Medusa treats
   * as unavailable (an exception here would fail the shopper's cart update).
   */
  async calculatePrice(
    optionData: CalculateShippingOptionPriceDTO["optionData"],
    _data: CalculateShippingOptionPriceDTO["data"],
    context: CalculateShippingOptionPriceDTO["context"]
  ): Promise<CalculatedShippingOptionPrice> {
    // Everything, conversion included, stays inside the guard: nothing may throw on the cart path.
    try {
      const outcome = await this.priceForCart(optionData, context)
      if (outcome.ok) {
        return {
          calculated_amount: minorToMajor(outcome.price.amount, outcome.price.currency),
          is_calculated_price_tax_inclusive: false,
        }
      }
      this.logger_.debug(
        `lastmile: ${String(optionData.id)} unavailable for cart ${context.id}: ${outcome.reason}: ${outcome.detail}`
      )
    } catch (error) {
      this.logger_.warn(
        `lastmile: pricing ${String(optionData.id)} for cart ${context.id} failed: ${error instanceof Error ? error.message : String(error)}`
      )
    }
    // No amount: Medusa treats the option as unavailable rather than failing the cart.
    return { calculated_amount: undefined as unknown as number, is_calculated_price_tax_inclusive: false }
  }

  protected async priceForCart(
    optionData: Record<string, unknown>,
    context: CalculateShippingOptionPriceDTO["context"]
  ): Promise<PricingOutcome> {
    const option = this.fulfillmentOptions_.find((o) => o.id === optionData.id)
    if (!option || option.kind === "return") {
      return { ok: false, reason: "rate_missing", detail: `not a priced lastmile option: ${String(optionData.id)}` }
    }
    const currencyCode = (context as { currency_code?: string }).currency_code ?? ""
    const email =
      (context as { lastmile_customer_email?: string; email?: string }).lastmile_customer_email ??
      (context as { email?: string }).email
    const cart: CartPricingContext = {
      cartId: context.id,
      currencyCode,
      items: (context.items ?? []) as CartPricingContext["items"],
      shippingAddress: context.shipping_address as CartPricingContext["shippingAddress"],
      email,
      location: context.from_location as CartPricingContext["location"],
    }
    return this.pricer_.price(option, cart)
  }

  async getFulfillmentOptions(): Promise<LastmileFulfillmentOption[]> {
    return this.fulfillmentOptions_.map((option) => ({ ...option }))
  }

  /** Never called by Medusa 2.21; answers truthfully for callers that do. */
  async validateOption(data: Record<string, unknown>): Promise<boolean> {
    return this.fulfillmentOptions_.some((option) => option.id === data.id)
  }

  /** Every lastmile option except the return one is priced by a quote. */
  async canCalculate(data: CreateShippingOptionDTO): Promise<boolean> {
    const id = data.data?.id
    const option = this.fulfillmentOptions_.find((o) => o.id === id)
    return option !== undefined && option.kind !== "return"
  }
}

export default LastmileFulfillmentProviderService
