import { AbstractFulfillmentProviderService, MedusaError } from "@medusajs/framework/utils"
import type { CreateShippingOptionDTO, Logger } from "@medusajs/framework/types"
import { LastmileClient } from "../../lib/service-client"
import { type LastmileFulfillmentOption, buildFulfillmentOptions } from "./fulfillment-options"
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
