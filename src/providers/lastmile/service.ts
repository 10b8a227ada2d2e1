import { AbstractFulfillmentProviderService, MedusaError } from "@medusajs/framework/utils"
import type {
  CalculateShippingOptionPriceDTO,
  CalculatedShippingOptionPrice,
  CreateFulfillmentResult,
  CreateShippingOptionDTO,
  Logger,
  ValidateFulfillmentDataContext,
} from "@medusajs/framework/types"
import { LastmileClient, type ServiceQuote } from "../../lib/service-client"
import { type CartPricingContext, CheckoutPricer, type PricingResult, storeExternalId } from "./checkout-pricing"
import { type LastmileFulfillmentOption, buildFulfillmentOptions } from "./fulfillment-options"
import { minorToMajor } from "./money"
import { normalisePhoneNumber } from "./phone-number"
import type { LastmilePricingContext } from "./pricing-context"
import { QuoteCache } from "./quote-cache"
import {
  type LastmileRateDetails,
  describeFallback,
  describePricing,
  shopperReason,
  toStoreDescription,
} from "./rate-details"
import { type StoreDescription, needsStoreDirectory } from "./rate-selection"
import {
  type BookingAdditionalData,
  type BookingMethodData,
  type BookingOrder,
  DeliveryBooker,
  LastmileAlreadyBookedError,
  LastmileBookingNeedsAttentionError,
} from "./delivery-booking"
import { LastmileError } from "../../lib/service-client"
import {
  InvalidProviderOptionsError,
  type LastmileProviderOptions,
  type ResolvedProviderOptions,
  resolveProviderOptions,
} from "./options"

type InjectedDependencies = {
  logger: Logger
}

/** Medusa's price result plus the rate's details for storefronts. */
export type LastmileCalculatedPrice = CalculatedShippingOptionPrice & { lastmile?: LastmileRateDetails }

/** What `validateFulfillmentData` stores on the shipping method, and booking reads. */
export interface LastmileShippingMethodData {
  [key: string]: unknown
  optionId: string
  kind: "delivery" | "collection"
  deliveryType: string
  /** null when offered at the outage fallback price. */
  rateCode: string | null
  stockLocationId: string | null
  /** The store's external id (collection only). */
  merchantLocationId: string | null
  /** The shopper's phone in international format. */
  phoneNumber: string | null
  description: string | null
  window: { from: string; to: string } | null
  /** Minor units of `quotedCurrency`, as quoted at selection. */
  quotedAmount: number | null
  quotedCurrency: string
  fallback: boolean
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
  protected readonly quoteDeliveryType_: string
  protected readonly booker_: DeliveryBooker
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
    this.quoteDeliveryType_ = this.options_.deliveryTypes[0]
    // The store list is read only when a collection rate does not name its store (DESIGN §4.5).
    const storeList = new QuoteCache<StoreDescription[]>({ ttlMs: 5 * 60_000, failureTtlMs: 30_000, max: 1 })
    const storesFor = async (quote: ServiceQuote): Promise<StoreDescription[]> => {
      if (!needsStoreDirectory(quote)) {
        return []
      }
      const outcome = await storeList.get("stores", async () =>
        (await this.client_.listFulfilmentLocations()).flatMap((l) => toStoreDescription(l) ?? [])
      )
      return outcome.ok ? outcome.value : []
    }
    this.booker_ = new DeliveryBooker(this.client_, {
      productIdSource: this.options_.productIdSource,
      priceTolerancePercent: this.options_.priceTolerancePercent,
      storesFor,
    })
    this.pricer_ = new CheckoutPricer(this.client_, cache, {
      quoteDeliveryType: this.quoteDeliveryType_,
      productIdSource: this.options_.productIdSource,
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
    _data: CalculateShippingOptionPriceDTO["data"],
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
      const result = await this.pricer_.price(option, cart)
      if (result.ok) {
        return {
          calculated_amount: minorToMajor(result.price.amount, result.price.currency),
          is_calculated_price_tax_inclusive: tax,
          lastmile: describePricing(option, result),
        }
      }
      const fallback = this.fallbackAmount(option, result, cart.currencyCode)
      if (fallback !== undefined) {
        this.logger_.warn(`lastmile: offering the fallback amount for cart ${context.id}: ${result.detail}`)
        return {
          calculated_amount: fallback,
          is_calculated_price_tax_inclusive: tax,
          lastmile: describeFallback(option),
        }
      }
      this.logger_.debug(
        `lastmile: ${option.id} unavailable for cart ${context.id}: ${result.reason}: ${result.detail}`
      )
      return this.unpriced(describePricing(option, result))
    } catch (error) {
      this.logger_.warn(
        `lastmile: pricing ${String(optionData.id)} for cart ${context.id} failed: ${error instanceof Error ? error.message : String(error)}`
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
  ): Promise<LastmileShippingMethodData | Record<string, unknown>> {
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
    const cart = this.toPricingContext(context as unknown as CalculateShippingOptionPriceDTO["context"])
    const result = await this.pricer_.price(option, cart)
    const phone = normalisePhoneNumber(cart.shippingAddress?.phone, cart.shippingAddress?.country_code)
    const base = {
      optionId: option.id,
      kind: option.kind as "delivery" | "collection",
      deliveryType:
        option.kind === "delivery" ? (option.delivery_type ?? this.quoteDeliveryType_) : this.quoteDeliveryType_,
      stockLocationId: cart.location?.id ?? null,
      merchantLocationId: option.kind === "collection" ? (storeExternalId(cart.location) ?? null) : null,
      phoneNumber: phone.ok ? phone.e164 : null,
    }
    if (result.ok) {
      return {
        ...base,
        rateCode: result.rate.rateCode,
        description: result.rate.description ?? null,
        window: result.rate.window ? { from: result.rate.window.from, to: result.rate.window.to } : null,
        quotedAmount: result.price.amount,
        quotedCurrency: result.price.currency,
        fallback: false,
      }
    }
    if (result.reason === "input_incomplete") {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, result.detail)
    }
    if (this.fallbackAmount(option, result, cart.currencyCode) !== undefined) {
      // Offered at the outage price; booking re-quotes and picks the rate then.
      return {
        ...base,
        rateCode: null,
        description: null,
        window: null,
        quotedAmount: null,
        quotedCurrency: cart.currencyCode.toUpperCase(),
        fallback: true,
      }
    }
    const what = option.kind === "collection" ? "Collection from this store" : "This delivery option"
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `${what} is no longer available: ${shopperReason(option, result)} Please choose another option.`
    )
  }

  /**
   * Books the order's delivery or collection with the service (DESIGN §3
   * Book). Called by Medusa's createOrderFulfillmentWorkflow, which the
   * plugin runs when an order is placed. A failure throws, so Medusa creates
   * no fulfillment; the plugin's booking runner records why and retries.
   */
  async createFulfillment(
    data: Record<string, unknown>,
    _items: unknown[],
    order: Record<string, unknown> | undefined,
    fulfillment: Record<string, unknown>,
    additionalData?: Record<string, unknown>
  ): Promise<CreateFulfillmentResult> {
    const option = this.findOption({ id: data.optionId })
    if (!option || option.kind === "return" || !order?.id) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `This shipping method has no lastmile booking data (option ${JSON.stringify(data.optionId ?? null)}); choose the lastmile option at checkout again.`
      )
    }
    const additional = (additionalData?.lastmile ?? {}) as BookingAdditionalData
    try {
      const booked = await this.booker_.book({
        option,
        data: data as BookingMethodData,
        order: order as unknown as BookingOrder,
        deliveryAddress: (fulfillment.delivery_address ?? null) as BookingOrder["shipping_address"],
        additional,
      })
      const task = booked.task
      return {
        data: {
          taskId: task.taskId,
          trackingId: task.trackingId ?? null,
          trackingUrl: task.trackingUrl ?? null,
          status: task.status?.value ?? null,
          rateCode: booked.rateCode,
          deliveryType: (data.deliveryType as string | undefined) ?? option.delivery_type ?? null,
          merchantLocationId: (data.merchantLocationId as string | undefined) ?? null,
          stockLocationId: (data.stockLocationId as string | undefined) ?? null,
          adopted: booked.adopted,
          bookedAt: new Date().toISOString(),
        },
        labels: task.trackingId
          ? [{ tracking_number: task.trackingId, tracking_url: task.trackingUrl ?? "", label_url: "" }]
          : [],
      }
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
      calculated_amount: undefined as unknown as number,
      is_calculated_price_tax_inclusive: this.options_.pricesIncludeTax,
      ...(details ? { lastmile: details } : {}),
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

  private toPricingContext(context: CalculateShippingOptionPriceDTO["context"]): CartPricingContext {
    const extended = context as typeof context &
      LastmilePricingContext & {
        email?: string | null
        customer?: { email?: string | null } | null
      }
    return {
      cartId: context.id,
      currencyCode: (extended.currency_code as string | undefined) ?? "",
      items: (context.items ?? []) as CartPricingContext["items"],
      shippingAddress: context.shipping_address as CartPricingContext["shippingAddress"],
      email: extended.lastmile_customer_email ?? extended.email ?? extended.customer?.email ?? null,
      location: context.from_location as CartPricingContext["location"],
      dispatchAddress: extended.lastmile_dispatch_address ?? null,
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

/**
 * Booking errors at Medusa's boundary. The message starts with a stable
 * marker the booking runner reads (error classes do not survive the
 * workflow engine); service errors are already redacted.
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
      "lastmile_booking_failed"
    )
  }
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Lastmile booking failed: ${error instanceof Error ? error.message : String(error)}`,
    "lastmile_booking_failed"
  )
}

export default LastmileFulfillmentProviderService
