/**
 * Which channels the app's Notification Module can send on, read from its config as Medusa's loader reads it
 * (decision 47).
 */

interface ProviderEntry {
  options?: { channels?: unknown }
}

interface NotificationModuleEntry {
  disable?: boolean
  options?: { providers?: ProviderEntry[]; cloud?: Record<string, unknown> }
}

/** The channels with a provider; an empty set when the module is absent or disabled. */
export function notificationChannelsIn(config: { modules?: Record<string, unknown> }): Set<string> {
  const entry = config.modules?.notification
  if (!entry || typeof entry !== "object" || (entry as NotificationModuleEntry).disable) {
    return new Set()
  }
  const options = (entry as NotificationModuleEntry).options ?? {}
  const channels = new Set<string>()
  for (const provider of options.providers ?? []) {
    const listed = provider?.options?.channels
    for (const channel of Array.isArray(listed) ? listed : []) {
      if (typeof channel === "string") {
        channels.add(channel)
      }
    }
  }
  const cloud = options.cloud ?? {}
  if (!channels.has("email") && cloud.api_key && cloud.endpoint && (cloud.environment_handle || cloud.sandbox_handle)) {
    channels.add("email")
  }
  return channels
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
  notifications: { enabled: boolean; channel: string; merchantChannel: string },
  channels: ReadonlySet<string>
): string[] {
  if (!notifications.enabled) {
    return []
  }
  return [
    ...(channels.has(notifications.channel) ? [] : [missingChannelMessage(notifications.channel, "shopper")]),
    ...(channels.has(notifications.merchantChannel)
      ? []
      : [missingChannelMessage(notifications.merchantChannel, "merchant")]),
  ]
}
