import { AbstractFulfillmentProviderService, MedusaError, Modules } from "@medusajs/framework/utils"
import { LRUCache } from "lru-cache"
import { BOOKING_ERROR_CODES } from "../../lib/lastmile/booking-codes"
import {
  type LastmileFulfillmentData,
  type LastmileShippingMethodData as ShippingMethodData,
  readBookingAdditionalData,
  readShippingMethodData,
  toLabels,
} from "../../lib/lastmile/contracts"
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
import { LastmileClient, type ServiceQuote, describeRefusal } from "../../lib/service-client"
import { type CartPricingContext, CheckoutPricer } from "./checkout-pricing"
import { storeExternalId, toStoreDescription } from "../../lib/lastmile/store"
import type { PricingResult } from "../../lib/lastmile/pricing-result"
import { ThrottledLog } from "../../lib/lastmile/throttled-log"
import { StoreDirectory } from "./store-directory"
import { type LastmileFulfillmentOption, buildFulfillmentOptions } from "../../lib/lastmile/fulfillment-options"
import { minorToMajor } from "../../lib/lastmile/money"
import { normalisePhoneNumber } from "../../lib/lastmile/phone-number"
import type { LastmilePricingContext } from "../../lib/lastmile/pricing-context"
import { QuoteCache } from "./quote-cache"
import { medusaSharedQuoteStore, optionalDependency } from "./shared-quote-store"
import {
  type LastmileRateDetails,
  describePricing,
  describeStandIn,
  listRates,
  rateNotOfferedMessage,
  shopperReason,
} from "../../lib/lastmile/rate-details"
import { COLLECTION_RATE_CODE, quoteDeliveryTypeOf } from "../../lib/lastmile/fulfillment-options"
import { type RateWish, type StoreDescription, needsStoreDirectory } from "../../lib/lastmile/rate-selection"
import {
  readAddress,
  readBookingOrder,
  DeliveryBooker,
  type FulfillmentItemLike,
  LastmileAlreadyBookedError,
  LastmileBookingNeedsAttentionError,
} from "./delivery-booking"
import { LastmileError } from "../../lib/service-client"
import {
  InvalidProviderOptionsError,
  type LastmileProviderOptions,
  type ResolvedProviderOptions,
  resolveProviderOptions,
} from "../../lib/lastmile/provider-options"

/** The fulfillment module's container: a logger always; Caching and Locking when the app has them (README, Deploying). */
type InjectedDependencies = {
  logger: Logger
} & Record<string, unknown>

/** What the provider reads of the cart contexts Medusa passes to calculatePrice and validateFulfillmentData. */
type MedusaCartContext = LastmilePricingContext & {
  id: string
  currency_code?: unknown
  items?: unknown
  shipping_address?: unknown
  from_location?: unknown
  email?: string | null
  customer?: { email?: string | null } | null
}

/** Medusa's price result plus the rate's details for storefronts. */
export type LastmileCalculatedPrice = CalculatedShippingOptionPrice & { lastmile?: LastmileRateDetails }

/** What `validateFulfillmentData` stores on the shipping method: the contract, with every field it sets. */
export type ValidatedMethodData = Required<
  Pick<ShippingMethodData, "optionId" | "kind" | "deliveryType" | "rateChosen" | "fallback">
> &
  ShippingMethodData

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
  protected readonly quoteDeliveryType_: string
  protected readonly booker_: DeliveryBooker
  private readonly fulfillmentOptions_: LastmileFulfillmentOption[]
  private readonly stores_: StoreDirectory
  private readonly warnings_: ThrottledLog
  /**
   * The cart lines each option was last priced with. Medusa prices an option
   * with the cart's items of the option's shipping profile, but hands
   * validateFulfillmentData the whole cart right after: it re-quotes with the
   * same lines, so the shopper's choice is checked against the quote they saw.
   */
  private readonly pricedLines_ = new LRUCache<string, string[]>({ max: 10_000, ttl: 10 * 60_000 })

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

  constructor(cradle: InjectedDependencies, options: LastmileProviderOptions) {
    super()
    const { logger } = cradle
    this.logger_ = logger
    this.warnings_ = new ThrottledLog(logger, 60_000)
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
      // Several instances share one quote per cart state; one instance fetches it while the others wait.
      shared: medusaSharedQuoteStore<ServiceQuote>({
        caching: optionalDependency<ICachingModuleService>(cradle, Modules.CACHING),
        locking: optionalDependency<ILockingModule>(cradle, Modules.LOCKING),
        warnings: this.warnings_,
      }),
      lockWaitMs: this.options_.quoteBudgetMs / 2,
    })
    this.quoteDeliveryType_ = this.options_.deliveryTypes[0]
    // Read at boot and kept fresh in the background: a cart never waits on it beyond its budget.
    this.stores_ = new StoreDirectory(
      async () => (await this.client_.listFulfilmentLocations()).flatMap((l) => toStoreDescription(l) ?? []),
      { refreshMs: 5 * 60_000, retryMs: 30_000, warn: (message) => this.warnings_.warn("stores", message) }
    )
    this.stores_.start()
    const storesFor = async (quote: ServiceQuote, waitMs: number): Promise<StoreDescription[]> =>
      needsStoreDirectory(quote) ? this.stores_.get(waitMs) : []
    this.booker_ = new DeliveryBooker(this.client_, {
      productIdSource: this.options_.productIdSource,
      priceTolerancePercent: this.options_.priceTolerancePercent,
      rateRule: this.options_.deliveryRateRule,
      storesFor,
    })
    this.pricer_ = new CheckoutPricer(this.client_, cache, {
      quoteDeliveryType: this.quoteDeliveryType_,
      productIdSource: this.options_.productIdSource,
      rateRule: this.options_.deliveryRateRule,
      budgetMs: this.options_.quoteBudgetMs,
      storesFor,
    })
  }

  /**
   * Prices an option from the cart's one quote. Never throws: an option the
   * service cannot price is returned without an amount, which Medusa treats
   * as unavailable (an exception here would fail the shopper's cart update).
   * The rate's text, window and any reason it is unavailable ride along as
   * `lastmile`, which Medusa passes through as `calculated_price.lastmile`.
   */
  async calculatePrice(
    optionData: CalculateShippingOptionPriceDTO["optionData"],
    data: CalculateShippingOptionPriceDTO["data"],
    context: CalculateShippingOptionPriceDTO["context"]
  ): Promise<LastmileCalculatedPrice> {
    const tax = this.options_.pricesIncludeTax
    // Everything, conversion included, stays inside the guard: nothing may throw on the cart path.
    try {
      const option = this.findOption(optionData)
      if (!option || option.kind === "return") {
        return this.unpriced(undefined)
      }
      const cart = this.toPricingContext(context)
      this.rememberPricedLines(option, cart)
      const method = data ?? {}
      const wanted = rateWish(option, method)
      const result: PricingResult =
        "problem" in wanted
          ? { ok: false, reason: "rate_code_invalid", detail: wanted.problem }
          : await this.pricer_.price(option, cart, wanted.wish)
      if (result.ok) {
        return {
          calculated_amount: minorToMajor(result.price.amount, result.price.currency),
          is_calculated_price_tax_inclusive: tax,
          lastmile: describePricing(option, result),
        }
      }
      if (result.reason === "service_unavailable") {
        // A blip on a refresh never costs the shopper the option they chose, at the price they chose it.
        const kept = this.keptPrice(option, method, cart)
        if (kept) {
          return { calculated_amount: kept.amount, is_calculated_price_tax_inclusive: tax, lastmile: kept.details }
        }
      }
      if (result.reason === "service_refused") {
        this.warnings_.warn(
          "refused",
          `lastmile: the service refused a checkout quote, so lastmile options are unavailable until this is fixed: ${describeRefusal(result.error)}`
        )
      }
      const fallback = this.fallbackAmount(option, result, cart.currencyCode)
      if (fallback !== undefined) {
        this.warnings_.warn(
          "fallback",
          `lastmile: live quotes are failing, so delivery is offered at the fallback amount (cart ${context.id}): ${result.detail}`
        )
        return {
          calculated_amount: fallback,
          is_calculated_price_tax_inclusive: tax,
          lastmile: describeStandIn(option, { kind: "fallback" }),
        }
      }
      this.logger_.debug(
        `lastmile: ${option.id} unavailable for cart ${context.id}: ${result.reason}: ${result.detail}`
      )
      return this.unpriced(describePricing(option, result))
    } catch (error) {
      this.logger_.warn(
        `lastmile: pricing ${String(optionData?.id)} for cart ${context?.id} failed: ${error instanceof Error ? error.message : String(error)}`
      )
      return this.unpriced(undefined)
    }
  }

  /**
   * Runs once, when the shopper picks the option. Re-checks that it can still
   * be offered and that the shopper's details are complete; each problem is
   * an INVALID_DATA error in words the shopper can act on. What it returns is
   * stored on the shipping method and is what booking works from.
   */
  async validateFulfillmentData(
    optionData: Record<string, unknown>,
    data: Record<string, unknown>,
    context: ValidateFulfillmentDataContext
  ): Promise<ValidatedMethodData | Record<string, unknown>> {
    const option = this.findOption(optionData)
    if (!option) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Shipping option data ${JSON.stringify(optionData.id ?? null)} is not a lastmile option.`
      )
    }
    if (option.kind === "return") {
      return { ...data, optionId: option.id }
    }
    const asked = requestedRate(option, data)
    if ("problem" in asked) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, asked.problem)
    }
    const wish = asked.wish
    const cart = this.toPricingContext(context)
    const pricedLines = this.pricedLines_.get(pricedKey(option, cart))
    if (pricedLines) {
      cart.items = cart.items.filter((item) => item.id && pricedLines.includes(item.id))
    }
    const result = await this.pricer_.price(option, cart, wish)
    const phone = normalisePhoneNumber(cart.shippingAddress?.phone, cart.shippingAddress?.country_code)
    const base = {
      optionId: option.id,
      kind: option.kind as "delivery" | "collection",
      deliveryType: quoteDeliveryTypeOf(option, this.quoteDeliveryType_),
      stockLocationId: cart.location?.id ?? null,
      merchantLocationId: option.kind === "collection" ? (storeExternalId(cart.location) ?? null) : null,
      phoneNumber: phone.ok ? phone.e164 : null,
      rateChosen: !!wish,
    }
    if (result.ok) {
      return {
        ...base,
        rateCode: result.rate.rateCode,
        rateName: result.rate.name ?? null,
        description: result.rate.description ?? null,
        window: result.rate.window ? { from: result.rate.window.from, to: result.rate.window.to } : null,
        quotedAmount: result.price.amount,
        quotedCurrency: result.price.currency,
        quotedAt: result.quotedAt !== undefined ? new Date(result.quotedAt).toISOString() : null,
        fallback: false,
      }
    }
    if (result.reason === "input_incomplete") {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, result.detail)
    }
    if (this.fallbackAmount(option, result, cart.currencyCode) !== undefined) {
      if (wish) {
        // No quote can confirm the rate asked for; the option itself is still offered at the fallback.
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          `Live delivery prices are unavailable right now, so the delivery rate ${JSON.stringify(wish.rateCode)} cannot be confirmed. Choose the delivery option without a specific rate, or try again in a moment.`
        )
      }
      // Offered at the outage price; booking re-quotes and picks the rate then.
      return {
        ...base,
        rateCode: null,
        rateName: null,
        description: null,
        window: null,
        quotedAmount: null,
        quotedCurrency: cart.currencyCode.toUpperCase(),
        quotedAt: null,
        fallback: true,
      }
    }
    if (wish && "rates" in result && result.rates) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        rateNotOfferedMessage(wish.rateCode, listRates(result.rates), cart.currencyCode)
      )
    }
    const what = option.kind === "collection" ? "Collection from this store" : "This delivery option"
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `${what} is no longer available: ${shopperReason(option, result)} Please choose another option.`
    )
  }

  /**
   * Books the order's delivery or collection with the service (ARCHITECTURE.md,
   * path step 4). Called by Medusa's createOrderFulfillmentWorkflow, which the
   * plugin's booking workflow runs when an order is placed. A failure throws, so Medusa creates
   * no fulfillment; the plugin's booking runner records why and retries.
   */
  async createFulfillment(
    data: Record<string, unknown>,
    items: FulfillmentItemLike[],
    order: Record<string, unknown> | undefined,
    fulfillment: Record<string, unknown>,
    additionalData?: Record<string, unknown>
  ): Promise<CreateFulfillmentResult> {
    const method = readShippingMethodData(data)
    const option = this.findOption({ id: method?.optionId })
    const booking = readBookingOrder(order)
    if (!method || !option || option.kind === "return" || !booking) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `This shipping method has no lastmile booking data (option ${JSON.stringify(data.optionId ?? null)}); choose the lastmile option at checkout again.`,
        // Retrying cannot help (say, a delivery type removed from delivery_types): the merchant decides.
        BOOKING_ERROR_CODES.needsAttention
      )
    }
    const additional = readBookingAdditionalData(additionalData?.lastmile)
    try {
      const booked = await this.booker_.book({
        option,
        data: method,
        order: booking,
        items,
        deliveryAddress: readAddress(fulfillment.delivery_address),
        additional,
      })
      const task = booked.task
      const recorded: LastmileFulfillmentData = {
        taskId: task.taskId,
        trackingId: task.trackingId ?? null,
        trackingUrl: task.trackingUrl ?? null,
        status: task.status?.value ?? null,
        rateCode: booked.rateCode,
        deliveryType: method.deliveryType ?? option.delivery_type ?? null,
        merchantLocationId: method.merchantLocationId ?? null,
        stockLocationId: method.stockLocationId ?? null,
        adopted: booked.adopted,
        bookedAt: new Date().toISOString(),
      }
      return { data: recorded, labels: toLabels(recorded) }
    } catch (error) {
      throw toMedusaBookingError(error)
    }
  }

  /**
   * The service has no cancel operation: a booked delivery is cancelled in
   * the service's own app. A fulfillment that was never booked cancels
   * normally (which also makes this safe as Medusa's compensation of a
   * failed fulfillment creation).
   */
  async cancelFulfillment(data: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (data?.taskId !== undefined && data?.taskId !== null) {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `This delivery is booked with the lastmile service (task ${String(data.taskId)}${data.trackingId ? `, tracking ${String(data.trackingId)}` : ""}), which has no cancel operation. Cancel it in the service's app; the fulfillment stays as it is.`
      )
    }
    return {}
  }

  /**
   * Medusa hands this neither the order nor the customer's address, so the
   * return is booked by the plugin's return subscriber (keyed on the return
   * id). Here the fulfillment is only marked as waiting for that booking.
   */
  async createReturnFulfillment(_fulfillment: Record<string, unknown>): Promise<CreateFulfillmentResult> {
    return { data: { status: "pending_booking" }, labels: [] }
  }

  private findOption(optionData: Record<string, unknown>): LastmileFulfillmentOption | undefined {
    return this.fulfillmentOptions_.find((o) => o.id === optionData.id)
  }

  private unpriced(details: LastmileRateDetails | undefined): LastmileCalculatedPrice {
    // No amount: Medusa treats the option as unavailable rather than failing the cart.
    return {
      // Medusa's type says number, but only an absent amount makes it treat the option as unavailable.
      calculated_amount: undefined as unknown as number,
      is_calculated_price_tax_inclusive: this.options_.pricesIncludeTax,
      ...(details ? { lastmile: details } : {}),
    }
  }

  private rememberPricedLines(option: LastmileFulfillmentOption, cart: CartPricingContext): void {
    const ids = cart.items.map((item) => item.id)
    // Lines without ids cannot be matched later: then the whole cart is quoted, as before.
    if (ids.length && ids.every((id): id is string => typeof id === "string" && id.length > 0)) {
      this.pricedLines_.set(pricedKey(option, cart), ids)
    }
  }

  /**
   * The price a shipping method was chosen at, while its quote is younger
   * than `keep_chosen_price_minutes`: only for the very option (and store)
   * it was chosen for, in the cart's currency.
   */
  private keptPrice(
    option: LastmileFulfillmentOption,
    method: Record<string, unknown>,
    cart: CartPricingContext
  ): { amount: number; details: LastmileRateDetails } | undefined {
    const chosen = readShippingMethodData(method)
    const quotedAt = typeof chosen?.quotedAt === "string" ? Date.parse(chosen.quotedAt) : NaN
    if (
      !chosen ||
      chosen.optionId !== option.id ||
      typeof chosen.quotedAmount !== "number" ||
      (chosen.quotedCurrency ?? "").toUpperCase() !== cart.currencyCode.toUpperCase() ||
      !(Date.now() - quotedAt <= this.options_.keepChosenPriceMs) ||
      (option.kind === "collection" && chosen.merchantLocationId !== (storeExternalId(cart.location) ?? null))
    ) {
      return undefined
    }
    return {
      amount: minorToMajor(chosen.quotedAmount, cart.currencyCode),
      details: describeStandIn(option, {
        kind: "kept",
        rateCode: chosen.rateCode ?? null,
        description: chosen.description ?? null,
        window: chosen.window ?? null,
      }),
    }
  }

  /** The merchant's outage price, for delivery options only: a store's stock cannot be known without the service. */
  private fallbackAmount(
    option: LastmileFulfillmentOption,
    result: PricingResult,
    currency: string
  ): number | undefined {
    if (result.ok || result.reason !== "service_unavailable" || option.kind !== "delivery") {
      return undefined
    }
    return this.options_.fallbackAmounts[currency.toLowerCase()]
  }

  /** Reads the cart from either context Medusa passes (pricing or validation), with the hook's additions. */
  private toPricingContext(context: MedusaCartContext): CartPricingContext {
    return {
      cartId: context.id,
      currencyCode: typeof context.currency_code === "string" ? context.currency_code : "",
      items: (context.items ?? []) as CartPricingContext["items"],
      shippingAddress: context.shipping_address as CartPricingContext["shippingAddress"],
      email: context.lastmile_customer_email ?? context.email ?? context.customer?.email ?? null,
      location: context.from_location as CartPricingContext["location"],
      dispatchAddress: context.lastmile_dispatch_address ?? null,
    }
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

function pricedKey(option: LastmileFulfillmentOption, cart: CartPricingContext): string {
  return `${cart.cartId}\u0000${option.id}\u0000${cart.location?.id ?? ""}`
}

/**
 * The rate a shopper asks for with `data.rate_code` (when adding the method,
 * or on `/calculate`): a delivery rate of the cart's current quote. A
 * collection option has one rate, SVC_COL. A malformed value is the
 * storefront's mistake, said in words.
 */
function requestedRate(option: LastmileFulfillmentOption, data: Record<string, unknown>): RateRequest {
  const code = data?.rate_code
  if (code === undefined || code === null) {
    return {}
  }
  if (typeof code !== "string" || !code.trim()) {
    return {
      problem:
        "data.rate_code must be the rate_code of one of the cart's delivery rates (GET /store/lastmile/rates lists them).",
    }
  }
  if (option.kind !== "delivery") {
    return code.trim() === COLLECTION_RATE_CODE
      ? {}
      : {
          problem: `A collection option is booked at its store's one rate; data.rate_code may only be ${COLLECTION_RATE_CODE}.`,
        }
  }
  return { wish: { rateCode: code.trim(), chosen: true } }
}

/**
 * The rate a pricing call is about: the one asked for, else the one the
 * shipping method holds (on a refresh Medusa passes the method's stored data).
 */
function rateWish(option: LastmileFulfillmentOption, data: Record<string, unknown>): RateRequest {
  const asked = requestedRate(option, data)
  if ("problem" in asked || asked.wish || option.kind !== "delivery") {
    return asked
  }
  const held = readShippingMethodData(data)
  if (!held || held.optionId !== option.id || (!held.rateCode && !held.rateName)) {
    return {}
  }
  return { wish: { rateCode: held.rateCode, name: held.rateName, chosen: held.rateChosen === true } }
}

type RateRequest = { wish?: RateWish } | { problem: string }

/**
 * Booking errors at Medusa's boundary: MedusaErrors whose `code` (one of the
 * plugin's booking codes) survives the workflow engine, where error classes
 * do not; the booking runner decides by it. Service errors are already
 * redacted.
 */
export function toMedusaBookingError(error: unknown): MedusaError {
  if (error instanceof MedusaError) {
    return error
  }
  if (error instanceof LastmileBookingNeedsAttentionError || error instanceof LastmileAlreadyBookedError) {
    return new MedusaError(MedusaError.Types.NOT_ALLOWED, error.message, error.code)
  }
  if (error instanceof LastmileError) {
    return new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      `Lastmile booking failed: ${error.message}`,
      BOOKING_ERROR_CODES.failed
    )
  }
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Lastmile booking failed: ${error instanceof Error ? error.message : String(error)}`,
    BOOKING_ERROR_CODES.failed
  )
}

export default LastmileFulfillmentProviderService
