/**
 * The plugin's connection to the service outside the provider (bookings, tracking, the admin; decision 24): one
 * client, closed at shutdown.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import {
  InvalidProviderOptionsError,
  type ResolvedProviderOptions,
  providerOptionsIn,
  resolveProviderOptions,
} from "../../../lib/options/provider-options"
import { LastmileClient, type ServiceTextNotice, onServiceTextCleaned } from "../../../lib/service-client"
import { ThrottledLog } from "../../../lib/support/throttled-log"
import { type ContainerLike, LASTMILE_MODULE } from "../module-name"

export interface ServiceConnection {
  client: LastmileClient
  options: ResolvedProviderOptions
}

type InjectedDependencies = {
  logger: Logger
  configModule?: { modules?: Record<string, unknown> }
}

export class ServiceConnectionService {
  /** The module's connection to the service, from the app's container. */
  static of(container: ContainerLike): ServiceConnectionService {
    return container.resolve<{ connection: ServiceConnectionService }>(LASTMILE_MODULE).connection
  }

  protected readonly logger_: Logger
  protected readonly config_: { modules?: Record<string, unknown> }
  private connection_: ServiceConnection | null | undefined
  /** What the client's parse edge cleaned of the service's answers, told once a minute per kind (service-text.ts). */
  private readonly onServiceText_: (notice: ServiceTextNotice) => void

  constructor({ logger, configModule }: InjectedDependencies) {
    this.logger_ = logger
    this.config_ = configModule ?? {}
    const warnings = new ThrottledLog(logger, 60_000)
    this.onServiceText_ = (notice) => {
      // The field without its positions: one line per kind of field a minute, however many rates or tasks.
      const field = notice.field.replace(/\.\d+(?=\.|$)/g, "")
      if (notice.kind === "link") {
        warnings.warn(
          `link:${field}`,
          `lastmile: the service sent a ${field} that is ${notice.reason}; it was dropped, so nothing links to it`
        )
      } else {
        warnings.warn(`text:${field}`, `lastmile: the service's ${field} was cleaned before use: ${notice.reason}`)
      }
    }
    // Held by this service for its life; the signal holds it weakly.
    onServiceTextCleaned(this.onServiceText_)
  }

  /**
   * The client and the provider's options, built on first use from the provider's own options as the host wrote them
   * in the fulfillment module's config (one source of truth); null when the provider is not registered.
   */
  get(): ServiceConnection | null {
    if (this.connection_ === undefined) {
      const raw = providerOptionsIn(this.config_)
      this.connection_ = raw ? this.open(raw) : null
    }
    return this.connection_
  }

  private open(raw: Record<string, unknown>): ServiceConnection {
    let options: ResolvedProviderOptions
    try {
      options = resolveProviderOptions(raw)
    } catch (error) {
      // The provider refuses such options at boot; say so here too rather than half-work.
      if (error instanceof InvalidProviderOptionsError) {
        throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
      }
      throw error
    }
    const client = new LastmileClient({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      locationsPath: options.locationsPath,
      timeouts: {
        quoteBudgetMs: options.quoteBudgetMs,
        bookingMs: options.bookingTimeoutMs,
        lookupMs: options.lookupTimeoutMs,
      },
      logger: this.logger_,
    })
    return { options, client }
  }

  /** At shutdown: the client lets go of its pool. */
  async close(): Promise<void> {
    await this.connection_?.client.close()
    this.connection_ = undefined
  }
}
