import { AbstractFulfillmentProviderService, MedusaError, Modules } from "@medusajs/framework/utils"
import type {
  CalculateShippingOptionPriceDTO,
  CalculatedShippingOptionPrice,
  CreateFulfillmentResult,
  CreateShippingOptionDTO,
  ICachingModuleService,
  ILockingModule,
  Logger,
  ValidateFulfillmentDataContext,
} from "@medusajs/framework/types"
import {
  LASTMILE_DATA_MARKER,
  type LastmileShippingMethodData,
  PENDING_BOOKING,
  readFulfillmentData,
} from "../../lib/contracts/plugin-data"
import { LastmileClient, type ServiceQuote, describeRefusal, onStoreListChanged } from "../../lib/service-client"
import { type CartPricingContext, CheckoutPricer } from "./checkout-pricing"
import { toStoreDescriptions, toStoreView } from "../../lib/store/store-identity"
import type { PricingResult } from "../../lib/checkout/pricing-result"
import type { RateWish } from "../../lib/checkout/rate-selection"
import { ThrottledLog } from "../../lib/support/throttled-log"
import { StoreDirectory } from "./store-directory"
import {
  LASTMILE_PROVIDER_IDENTIFIER,
  type LastmileFulfillmentOption,
  buildFulfillmentOptions,
} from "../../lib/contracts/fulfillment-options"
import { minorToMajor } from "../../lib/money/money"
import type { LastmilePricingContext } from "../../lib/checkout/pricing-additions"
import { QuoteCache } from "./quote-cache"
import { medusaSharedQuoteStore, optionalDependency } from "./shared-quote-store"
import {
  type LastmileRateDetails,
  describeLostChoice,
  describePricing,
  describeStandIn,
  listRates,
  rateNotOfferedMessage,
  shopperReason,
} from "../../lib/checkout/rate-details"
import {
  cartStateOf,
  chosenMethodFor,
  fallbackAmount,
  heldRate,
  isHeldRate,
  keptPrice,
  rateWish,
  requestedRate,
} from "../../lib/checkout/chosen-rate"
import {
  InvalidProviderOptionsError,
  type LastmileProviderOptions,
  type ResolvedProviderOptions,
  resolveProviderOptions,
} from "../../lib/options/provider-options"
import { cancelRefusal } from "../../lib/booking/cancellation"
import { deliveryNoteFor, readDeliveryNote } from "../../lib/checkout/delivery-note"
import { announceOfferPriced } from "../../lib/insights/offer-signal"

/** The fulfillment module's container: a logger always; Caching and Locking when the app has them (README, Deploying). */
type InjectedDependencies = {
  logger: Logger
} & Record<string, unknown>

/** What the provider reads of the contexts Medusa passes to calculatePrice and validateFulfillmentData. */
type MedusaPricingContext = LastmilePricingContext & {
  id?: string
  currency_code?: unknown
  items?: unknown
  shipping_address?: unknown
  from_location?: unknown
  email?: string | null
  customer?: { email?: string | null } | null
  exchange_id?: unknown
  claim_id?: unknown
  return_id?: unknown
  /** The cart's methods (`validateFulfillmentData`'s context is the cart), the note of its delivery among them. */
  shipping_methods?: ({ data?: unknown } | null)[] | null
}

const NO_RATE = { rateCode: null, rateName: null, description: null, window: null, quotedAt: null } as const

/** The shopper's (or the merchant's) request cannot be served as it is, in words they can act on. */
const invalid = (message: string) => new MedusaError(MedusaError.Types.INVALID_DATA, message)

/** Medusa's price result plus the rate's details for storefronts. */
export type LastmileCalculatedPrice = CalculatedShippingOptionPrice & { lastmile?: LastmileRateDetails }

/**
 * The provider `lastmile_lastmile`. It cannot reach other modules, so it only prices options (one quote per
 * cart state), checks a shopper's choice and answers Medusa's fulfillment calls; booking is the plugin's
 * workflow, run for every lastmile fulfillment (ARCHITECTURE.md, decision 19).
 */
export class LastmileFulfillmentProviderService extends AbstractFulfillmentProviderService {
  static identifier = LASTMILE_PROVIDER_IDENTIFIER

  protected readonly logger_: Logger
  protected readonly options_: ResolvedProviderOptions
  protected readonly client_: LastmileClient
  protected readonly pricer_: CheckoutPricer
  private readonly fulfillmentOptions_: LastmileFulfillmentOption[]
  private readonly stores_: StoreDirectory
  private readonly warnings_: ThrottledLog
  private readonly quotes_: QuoteCache<ServiceQuote, PricingResult>
  /** Held as long as the provider: the signal holds it weakly. */
  private readonly onStoresChanged_ = (locations?: unknown[]) => (locations ? undefined : this.quotes_.clear())

  /** Runs at boot: a bad option stops the app with a message naming each problem. */
  static validateOptions(options: Record<string, unknown>): void {
    try {
      resolveProviderOptions(options)
    } catch (error) {
      throw error instanceof InvalidProviderOptionsError ? invalid(error.message) : error
    }
  }

  constructor(cradle: InjectedDependencies, options: LastmileProviderOptions) {
    super()
    const { logger } = cradle
    this.logger_ = logger
    this.warnings_ = new ThrottledLog(logger, 60_000)
    this.options_ = resolveProviderOptions(options)
    this.client_ = new LastmileClient({
      apiKey: this.options_.apiKey,
      baseUrl: this.options_.baseUrl,
      locationsPath: this.options_.locationsPath,
      timeouts: {
        quoteBudgetMs: this.options_.quoteBudgetMs,
        bookingMs: this.options_.bookingTimeoutMs,
        lookupMs: this.options_.lookupTimeoutMs,
      },
      logger,
    })
    this.fulfillmentOptions_ = buildFulfillmentOptions(this.options_.deliveryTypes)
    this.quotes_ = new QuoteCache<ServiceQuote, PricingResult>({
      ttlMs: this.options_.quoteCacheTtlSeconds * 1000,
      // A failed quote is retried at most every few seconds per cart state.
      failureTtlMs: Math.min(5000, this.options_.quoteCacheTtlSeconds * 1000),
      // Bounded by quotes and by rates: 2,000 quotes of a small shop, fewer of a shop with many stores.
      max: 2000,
      maxSize: 50_000,
      sizeOf: (quote) => quote.rates.length,
      // Several instances share one quote per cart state; one instance fetches it while the others wait.
      shared: medusaSharedQuoteStore<ServiceQuote>({
        caching: optionalDependency<ICachingModuleService>(cradle, Modules.CACHING),
        locking: optionalDependency<ILockingModule>(cradle, Modules.LOCKING),
        warnings: this.warnings_,
      }),
      lockWaitMs: this.options_.quoteBudgetMs / 2,
    })
    // Read when a quote first needs it, then kept fresh in the background: nothing reaches the network at boot.
    this.stores_ = new StoreDirectory(async () => toStoreDescriptions(await this.client_.listFulfilmentLocations()), {
      refreshMs: 5 * 60_000,
      retryMs: 30_000,
      warn: (message) => this.warnings_.warn("stores", message),
    })
    // A store's collection switched at the service: no quote held may still offer (or refuse) it.
    onStoreListChanged(this.onStoresChanged_)
    this.pricer_ = new CheckoutPricer(this.client_, this.quotes_, this.stores_, this.options_)
  }

  /**
   * On a cart it never throws (that would fail the shopper's cart update): an unpriceable option has no amount.
   * On an order's method (an exchange's or claim's) a refusal is an error: Medusa cannot store it without one.
   */
  async calculatePrice(
    optionData: CalculateShippingOptionPriceDTO["optionData"],
    data: CalculateShippingOptionPriceDTO["data"],
    context: CalculateShippingOptionPriceDTO["context"]
  ): Promise<LastmileCalculatedPrice> {
    const medusa = context as MedusaPricingContext
    // Medusa's order flows (returns, exchanges, claims) price with the order, never a cart.
    const order = medusa.exchange_id !== undefined || medusa.claim_id !== undefined || medusa.return_id !== undefined
    if (medusa.lastmile_order || order) {
      return this.priceOrderMethod(optionData, medusa)
    }
    const answer = await this.priceCartOption(optionData, data, medusa)
    // Counted for insights off the checkout path: a push onto the plugin module's queue (lib/insights/offer-signal.ts).
    announceOfferPriced(medusa, optionData, answer)
    return answer
  }

  private async priceCartOption(
    optionData: CalculateShippingOptionPriceDTO["optionData"],
    data: CalculateShippingOptionPriceDTO["data"],
    medusa: MedusaPricingContext
  ): Promise<LastmileCalculatedPrice> {
    // Everything, conversion included, stays inside the guard: nothing may throw on the cart path.
    try {
      const option = this.findOption(optionData)
      if (!option || option.kind === "return" || medusa.lastmile_cart_completed) {
        return this.priced(undefined)
      }
      const cart = this.toPricingContext(medusa)
      const chosen = chosenMethodFor(option, medusa.lastmile_chosen_methods, cart.location?.id)
      const wanted = rateWish(option, data, chosen)
      const result: PricingResult =
        "problem" in wanted
          ? { ok: false, reason: "rate_code_invalid", detail: wanted.problem }
          : await this.pricer_.price(option, cart, wanted.wish)
      // Medusa pricing the cart's own method again: its rate, or nothing (decision 58).
      const held = heldRate(option, data, chosen)
      const lost = (rate: RateWish, why: PricingResult) => {
        // Without an amount Medusa removes the method, and the rates route tells the shopper why.
        this.logger_.debug(`lastmile: the method of cart ${cart.cartId} no longer prices its rate: removed`)
        return this.priced(undefined, describeLostChoice(option, rate, why))
      }
      if (result.ok) {
        return !held || isHeldRate(result.rate, held) ? this.quoted(option, result) : lost(held, result)
      }
      // A blip on a refresh never costs the shopper the option they chose, at the price they chose it,
      // as long as the cart is still what was quoted: a new address or basket is priced as a new cart.
      const { keepChosenPriceMs: keepMs, productIdSource } = this.options_
      const kept =
        result.reason === "service_unavailable" &&
        keptPrice(option, chosen, { now: Date.now(), keepMs, state: cartStateOf(cart, productIdSource) })
      if (kept) {
        return this.priced(kept.amount, kept.details)
      }
      if (held) {
        return lost(held, result)
      }
      if (result.reason === "service_refused") {
        this.warnings_.warn(
          "refused",
          `lastmile: the service refused a checkout quote, so lastmile options are unavailable until this is fixed: ${describeRefusal(result.error)}`
        )
      }
      const fallback = fallbackAmount(option, result, cart.currencyCode, this.options_.fallbackAmounts)
      if (fallback !== undefined) {
        this.warnings_.warn(
          "fallback",
          `lastmile: live quotes are failing, so delivery is offered at the fallback amount (cart ${cart.cartId}): ${result.detail}`
        )
        return this.priced(fallback, describeStandIn(option, { kind: "fallback" }))
      }
      this.logger_.debug(
        `lastmile: ${option.id} unavailable for cart ${cart.cartId}: ${result.reason}: ${result.detail}`
      )
      return this.priced(undefined, describePricing(option, result))
    } catch (error) {
      this.logger_.warn(
        `lastmile: pricing ${String(optionData?.id)} for cart ${medusa?.id} failed: ${error instanceof Error ? error.message : String(error)}`
      )
      return this.priced(undefined)
    }
  }

  /** An order's method, by checkout's rules; what Medusa's order context lacks comes from the plugin's hooks. */
  private async priceOrderMethod(
    optionData: Record<string, unknown>,
    context: MedusaPricingContext
  ): Promise<LastmileCalculatedPrice> {
    const option = this.findOption(optionData)
    const subject = context.lastmile_order
    if (!option || option.kind === "return") {
      throw invalid(
        "The lastmile return option has a flat price; choose a lastmile delivery or collection option to ship items."
      )
    }
    if (!subject) {
      throw invalid(
        "Lastmile cannot price this order's shipping: the plugin's pricing hooks did not run for it. Use a flat-rate option or a custom price."
      )
    }
    const cart: CartPricingContext = {
      ...this.toPricingContext(context),
      cartId: subject.reference_id ?? subject.order_id,
      currencyCode: subject.currency_code,
      items: subject.items,
      shippingAddress: subject.shipping_address,
      email: context.lastmile_customer_email ?? null,
    }
    const result = await this.pricer_.price(option, cart)
    if (result.ok) {
      return this.quoted(option, result)
    }
    const fallback = fallbackAmount(option, result, cart.currencyCode, this.options_.fallbackAmounts)
    if (fallback !== undefined) {
      return this.priced(fallback, describeStandIn(option, { kind: "fallback" }))
    }
    if (subject.custom_amount !== null && Number.isFinite(subject.custom_amount)) {
      // The merchant's own price stands (Medusa stores it over ours); the booking quotes again.
      return this.priced(subject.custom_amount, describePricing(option, result))
    }
    const what = option.kind === "collection" ? "Collection from this store" : "Lastmile delivery"
    throw invalid(`${what} cannot be priced for these items: ${shopperReason(option, result)}`)
  }

  /**
   * When the shopper picks the option: each problem is an INVALID_DATA error in words they can act on. What it
   * returns is stored on the shipping method, which is public: only what the shopper is shown.
   */
  async validateFulfillmentData(
    optionData: Record<string, unknown>,
    data: Record<string, unknown>,
    context: ValidateFulfillmentDataContext
  ): Promise<LastmileShippingMethodData> {
    const option = this.findOption(optionData)
    if (!option) {
      throw invalid(`Shipping option data ${JSON.stringify(optionData.id ?? null)} is not a lastmile option.`)
    }
    if (option.kind === "return") {
      throw invalid("The lastmile return option cannot ship a cart.")
    }
    const asked = requestedRate(option, data)
    if ("problem" in asked) {
      throw invalid(asked.problem)
    }
    const note = readDeliveryNote(data, option.kind)
    if ("problem" in note) {
      throw invalid(note.problem)
    }
    const wish = asked.wish
    const cart = this.toPricingContext(context)
    // Checked against the offer the shopper was shown: the quote already held for these lines.
    cart.items = this.pricer_.linesPricedFor(option, cart)
    const result = await this.pricer_.price(option, cart, wish)
    // The shopper's own words: kept when they choose again without saying (Medusa replaces the method; decision 62).
    const deliveryNote =
      option.kind === "delivery" ? deliveryNoteFor(note, (context as MedusaPricingContext).shipping_methods) : null
    const base: LastmileShippingMethodData = {
      provider: LASTMILE_DATA_MARKER,
      kind: option.kind,
      rateChosen: !!wish,
      ...(option.kind === "collection" ? { store: toStoreView(cart.location) } : {}),
      ...(deliveryNote ? { deliveryNote } : {}),
    }
    if (result.ok) {
      return {
        ...base,
        rateCode: result.rate.rateCode,
        rateName: result.rate.name ?? null,
        description: result.rate.description ?? null,
        window: result.rate.window ? { from: result.rate.window.from, to: result.rate.window.to } : null,
        quotedAt: result.quotedAt !== undefined ? new Date(result.quotedAt).toISOString() : null,
        quotedFor: cartStateOf(cart, this.options_.productIdSource),
        fallback: false,
      }
    }
    if (result.reason === "input_incomplete") {
      throw invalid(result.detail)
    }
    if (fallbackAmount(option, result, cart.currencyCode, this.options_.fallbackAmounts) !== undefined) {
      if (wish) {
        // No quote can confirm the rate asked for; the option itself is still offered at the fallback.
        throw invalid(
          `Live delivery prices are unavailable right now, so the delivery rate ${JSON.stringify(wish.rateCode)} cannot be confirmed. Choose the delivery option without a specific rate, or try again in a moment.`
        )
      }
      // Offered at the outage price; booking re-quotes and picks the rate then.
      return { ...base, ...NO_RATE, fallback: true }
    }
    if (wish && "rates" in result && result.rates) {
      throw invalid(rateNotOfferedMessage(wish.rateCode, listRates(result.rates), cart.currencyCode))
    }
    const what = option.kind === "collection" ? "Collection from this store" : "This delivery option"
    throw invalid(`${what} is no longer available: ${shopperReason(option, result)} Please choose another option.`)
  }

  /**
   * Only marked as being booked: the `fulfillmentCreated` hook books it in the same workflow (decision 19). Medusa
   * creates the fulfillment with the method's data and merges this answer over it, so the shopper's note to the
   * courier is cleared here: a fulfillment never holds it (decision 62).
   */
  async createFulfillment(data: Record<string, unknown>): Promise<CreateFulfillmentResult> {
    const clearNote = data && typeof data === "object" && "deliveryNote" in data ? { deliveryNote: null } : {}
    return { data: { provider: LASTMILE_DATA_MARKER, status: PENDING_BOOKING, ...clearNote }, labels: [] }
  }

  /** The service has no cancel operation: a task live there refuses, saying where to cancel; the rest cancel. */
  async cancelFulfillment(data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const refusal = cancelRefusal(readFulfillmentData(data))
    if (refusal) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, refusal)
    }
    return {}
  }

  /** Medusa hands this neither the order nor the address: the plugin's return workflow books it, from the events. */
  async createReturnFulfillment(_fulfillment: Record<string, unknown>): Promise<CreateFulfillmentResult> {
    return { data: { provider: LASTMILE_DATA_MARKER, kind: "return", status: PENDING_BOOKING }, labels: [] }
  }

  private findOption(optionData: Record<string, unknown>): LastmileFulfillmentOption | undefined {
    return this.fulfillmentOptions_.find((o) => o.id === optionData?.id)
  }

  /** Without an amount: Medusa treats the option as unavailable rather than failing the cart. */
  private priced(amount: number | undefined, details?: LastmileRateDetails): LastmileCalculatedPrice {
    return {
      // Medusa's type says number, but only an absent amount makes it treat the option as unavailable.
      calculated_amount: amount as number,
      is_calculated_price_tax_inclusive: this.options_.pricesIncludeTax,
      ...(details ? { lastmile: details } : {}),
    }
  }

  private quoted(option: LastmileFulfillmentOption, result: PricingResult & { ok: true }): LastmileCalculatedPrice {
    return this.priced(minorToMajor(result.price.amount, result.price.currency), describePricing(option, result))
  }

  /** The cart from either context Medusa passes; the hook's additions ride on the pricing one only. */
  private toPricingContext(context: MedusaPricingContext | ValidateFulfillmentDataContext): CartPricingContext {
    const cart: MedusaPricingContext = context
    return {
      cartId: String(cart.id ?? ""),
      currencyCode: typeof cart.currency_code === "string" ? cart.currency_code : "",
      items: (cart.items ?? []) as CartPricingContext["items"],
      shippingAddress: cart.shipping_address as CartPricingContext["shippingAddress"],
      email: cart.lastmile_customer_email ?? cart.email ?? cart.customer?.email ?? null,
      location: cart.from_location as CartPricingContext["location"],
      dispatchAddress: cart.lastmile_dispatch_address ?? null,
    }
  }

  async getFulfillmentOptions(): Promise<LastmileFulfillmentOption[]> {
    return this.fulfillmentOptions_.map((option) => ({ ...option }))
  }

  /** Never called by Medusa 2.21; answers truthfully for callers that do. */
  async validateOption(data: Record<string, unknown>): Promise<boolean> {
    return this.findOption(data) !== undefined
  }

  /** Every option but the return is quoted. An edit without data (the dashboard's) keeps what creation answered. */
  async canCalculate(data: CreateShippingOptionDTO): Promise<boolean> {
    if (!data.data && "id" in data && data.id) {
      return true
    }
    const option = this.findOption(data.data ?? {})
    return option !== undefined && option.kind !== "return"
  }
}

export default LastmileFulfillmentProviderService
