/**
 * What the app configured for the plugin: its options (validated when the module is built, one message per bad
 * option), the channels its Notification Module can send on, and the backend's public URLs.
 */
import { MedusaError } from "@medusajs/framework/utils"
import {
  InvalidPluginOptionsError,
  type LastmilePluginOptions,
  type ResolvedPluginOptions,
  resolvePluginOptions,
} from "../../../lib/options/plugin-options"
import { type ConfiguredBackendUrl, adminOrderUrl, configuredBackendUrl } from "../../../lib/options/backend-urls"
import {
  type ChannelProvider,
  missingChannelWarnings,
  notificationProvidersIn,
  requiresMessageId,
  timeZoneWarning,
} from "../../../lib/notifications/notification-channels"
import { type ContainerLike, LASTMILE_MODULE } from "../module-name"

export type AppConfig = { modules?: Record<string, unknown>; admin?: { backendUrl?: string; path?: string } }

type InjectedDependencies = {
  /** The plugin's options as medusa-config gives them (registered by the module's loader). */
  lastmileOptions?: LastmilePluginOptions
  configModule?: AppConfig
}

export class PluginSettingsService {
  /** The module's settings, from the app's container. */
  static of(container: ContainerLike): PluginSettingsService {
    return container.resolve<{ settings: PluginSettingsService }>(LASTMILE_MODULE).settings
  }

  readonly options: ResolvedPluginOptions
  protected readonly config_: AppConfig
  private providers_: ReadonlyMap<string, ChannelProvider> | undefined

  constructor({ lastmileOptions, configModule }: InjectedDependencies) {
    try {
      this.options = resolvePluginOptions(lastmileOptions)
    } catch (error) {
      if (error instanceof InvalidPluginOptionsError) {
        throw new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
      }
      throw error
    }
    this.config_ = configModule ?? {}
  }

  /** Each channel of the app's Notification Module with its provider (read once from its config). */
  notificationProviders(): ReadonlyMap<string, ChannelProvider> {
    this.providers_ ??= notificationProvidersIn(this.config_)
    return this.providers_
  }

  /** Whether the app's Notification Module has a provider for the channel. */
  canNotifyOn(channel: string): boolean {
    return this.notificationProviders().has(channel)
  }

  /** Whether a send on the channel counts only when its provider answers with a message id (decision 61). */
  requiresMessageId(channel: string): boolean {
    const option = this.options.notifications.requireMessageId
    return requiresMessageId(channel, option, this.notificationProviders().get(channel))
  }

  /** Said once at boot: each channel the plugin sends on with no provider behind it, and a time zone not set. */
  missingChannelWarnings(): string[] {
    const channels = new Set(this.notificationProviders().keys())
    const zone = timeZoneWarning(this.options.notifications)
    return [...missingChannelWarnings(this.options.notifications, channels), ...(zone ? [zone] : [])]
  }

  /** The backend's public URL as configured (`backend_url`, else Medusa's absolute `admin.backendUrl`), or null. */
  backendUrl(): ConfiguredBackendUrl | null {
    return configuredBackendUrl(this.options.backendUrl, this.config_.admin)
  }

  /** An order's page in the admin, for the merchant's messages. */
  adminOrderUrl(orderId: string): string {
    return adminOrderUrl(this.backendUrl(), this.config_.admin, orderId)
  }
}
