/**
 * Which channels the app's Notification Module can send on, read from its config as Medusa's loader reads it
 * (decision 47).
 */

interface ProviderEntry {
  resolve?: unknown
  id?: unknown
  options?: { channels?: unknown; name?: unknown }
}

/** The provider behind a channel, as the app registered it. */
export interface ChannelProvider {
  /** The provider's id in medusa-config (`id`). */
  id: string
  /** What it resolves (`@medusajs/medusa/notification-sendgrid`, a path); "medusa-cloud" for Medusa Cloud's email. */
  resolve: string
  /** The name its options give it, if any. */
  name: string | null
}

interface NotificationModuleEntry {
  disable?: boolean
  options?: { providers?: ProviderEntry[]; cloud?: Record<string, unknown> }
}

/** Each channel with its provider; empty when the module is absent or disabled. */
export function notificationProvidersIn(config: { modules?: Record<string, unknown> }): Map<string, ChannelProvider> {
  const entry = config.modules?.notification
  const providers = new Map<string, ChannelProvider>()
  if (!entry || typeof entry !== "object" || (entry as NotificationModuleEntry).disable) {
    return providers
  }
  const options = (entry as NotificationModuleEntry).options ?? {}
  for (const provider of options.providers ?? []) {
    const listed = provider?.options?.channels
    for (const channel of Array.isArray(listed) ? listed : []) {
      if (typeof channel === "string" && !providers.has(channel)) {
        providers.set(channel, {
          id: typeof provider.id === "string" ? provider.id : "",
          resolve: typeof provider.resolve === "string" ? provider.resolve : "(a provider object)",
          name: typeof provider.options?.name === "string" ? provider.options.name : null,
        })
      }
    }
  }
  const cloud = options.cloud ?? {}
  if (
    !providers.has("email") &&
    cloud.api_key &&
    cloud.endpoint &&
    (cloud.environment_handle || cloud.sandbox_handle)
  ) {
    providers.set("email", { id: "medusa-cloud", resolve: "medusa-cloud", name: "Medusa Cloud email" })
  }
  return providers
}

/** The channels with a provider; an empty set when the module is absent or disabled. */
export function notificationChannelsIn(config: { modules?: Record<string, unknown> }): Set<string> {
  return new Set(notificationProvidersIn(config).keys())
}

/** Medusa's providers that answer a send with no message id, whether or not they sent it (local logs; SendGrid's API returns none). */
const ANSWER_WITHOUT_ID = /(^|\/)notification-(local|sendgrid)$/

/**
 * Whether a channel's provider must answer with a message id for a message to count as sent (decision 61): what the
 * option says, else every provider but Medusa's local and SendGrid ones, which never give one.
 */
export function requiresMessageId(
  channel: string,
  option: boolean | string[] | null,
  provider: ChannelProvider | undefined
): boolean {
  if (typeof option === "boolean") {
    return option
  }
  if (Array.isArray(option)) {
    return option.includes(channel)
  }
  return !!provider && provider.resolve !== "medusa-cloud" && !ANSWER_WITHOUT_ID.test(provider.resolve)
}

/** The boot log's sentence for a channel the plugin would send on and nobody can. */
export function missingChannelMessage(channel: string, audience: "shopper" | "merchant"): string {
  return audience === "shopper"
    ? `lastmile: no notification provider handles the "${channel}" channel, so shoppers get no messages about ` +
        `their deliveries and collections. Register one (the local provider, SendGrid, …) for "${channel}" in the ` +
        "notification module, set notifications.channel, or set notifications: false to silence this."
    : `lastmile: no notification provider handles the "${channel}" channel, so the merchant's alerts (failed ` +
        "bookings, failed attempts, uncollected orders) reach no one. Register one for it, or set " +
        "notifications.merchant_channel."
}

/**
 * What the boot log says of the channels the plugin sends on with no provider
 * behind them (nothing when messages are off): such a channel sends nothing
 * and leaves no failed rows (ARCHITECTURE.md, decision 47).
 */
export function missingChannelWarnings(
  notifications: { enabled: boolean; channel: string; merchantChannel: string; smsChannel?: string | null },
  channels: ReadonlySet<string>
): string[] {
  if (!notifications.enabled) {
    return []
  }
  const sms = notifications.smsChannel
  return [
    ...(channels.has(notifications.channel) ? [] : [missingChannelMessage(notifications.channel, "shopper")]),
    ...(channels.has(notifications.merchantChannel)
      ? []
      : [missingChannelMessage(notifications.merchantChannel, "merchant")]),
    ...(sms && !channels.has(sms)
      ? [
          `lastmile: no notification provider handles the "${sms}" channel (notifications.sms_channel), so shoppers ` +
            `get no text messages. Register one (Twilio, the local provider, …) for "${sms}", or unset notifications.sms_channel.`,
        ]
      : []),
  ]
}

/** The boot log's sentence when no time zone is set: times are the store's when the service says its zone, else UTC. */
export function timeZoneWarning(notifications: { enabled: boolean; timeZone: string | null }): string | null {
  return notifications.enabled && !notifications.timeZone
    ? "lastmile: notifications.time_zone is not set, so times in messages are written in the zone of the store's " +
        'opening hours when the service gives one, else in UTC with "UTC" after them. Set notifications.time_zone ' +
        '(e.g. "Europe/London") to write them in your store\'s time.'
    : null
}
