/**
 * The service client for code outside the provider (the return subscriber,
 * admin routes): built from the provider's own options, as the host wrote
 * them in the fulfillment module's config, so there is one source of truth.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { LastmileClient } from "../service-client"
import { type ResolvedProviderOptions, resolveProviderOptions } from "../lastmile/provider-options"

interface ProviderEntry {
  resolve?: unknown
  id?: string
  options?: Record<string, unknown>
}

const resolvedOptions = new WeakMap<object, ResolvedProviderOptions>()
let cached: { key: string; client: LastmileClient; options: ResolvedProviderOptions } | undefined

export function lastmileProviderOptions(container: MedusaContainer): ResolvedProviderOptions | null {
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  const fulfillment = (config.modules as Record<string, unknown> | undefined)?.[Modules.FULFILLMENT]
  const providers =
    fulfillment && typeof fulfillment === "object"
      ? (((fulfillment as { options?: { providers?: ProviderEntry[] } }).options?.providers ?? []) as ProviderEntry[])
      : []
  const entry = providers.find(
    (p) => p.id === "lastmile" && typeof p.resolve === "string" && p.resolve.includes("lastmile")
  )
  if (!entry) {
    return null
  }
  // Resolved once per options object: the webhook reads them on every request.
  const raw = entry.options ?? {}
  let resolved = resolvedOptions.get(raw)
  if (!resolved) {
    resolved = resolveProviderOptions(raw)
    resolvedOptions.set(raw, resolved)
  }
  return resolved
}

export function lastmileClient(
  container: MedusaContainer
): { client: LastmileClient; options: ResolvedProviderOptions } | null {
  const options = lastmileProviderOptions(container)
  if (!options) {
    return null
  }
  const key = `${options.baseUrl}\u0000${options.apiKey}`
  if (cached?.key !== key) {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    cached = {
      key,
      options,
      client: new LastmileClient({
        apiKey: options.apiKey,
        baseUrl: options.baseUrl,
        timeouts: {
          quoteBudgetMs: options.quoteBudgetMs,
          bookingMs: options.bookingTimeoutMs,
          lookupMs: options.lookupTimeoutMs,
        },
        logger,
      }),
    }
  }
  return { client: cached.client, options: cached.options }
}
