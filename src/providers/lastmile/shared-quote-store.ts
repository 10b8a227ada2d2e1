/**
 * The quote cache's second level on several instances: Medusa's Caching module shares a quote, its Locking module
 * lets one instance fetch it (decision 9); any failure falls back to fetching directly.
 */
import type { ICachingModuleService, ILockingModule } from "@medusajs/framework/types"
import type { SharedQuoteStore, SharedValue } from "./quote-cache"
import type { ThrottledLog } from "../../lib/support/throttled-log"

const PREFIX = "lastmile:quote:"

export interface SharedStoreDependencies {
  caching?: ICachingModuleService
  locking?: ILockingModule
  /** The provider's throttled warnings: a failing store is said once a minute, not once per cart. */
  warnings: ThrottledLog
}

/** Reads an optional registration: Medusa's container proxy throws for one that was never registered. */
export function optionalDependency<T>(cradle: Record<string, unknown>, key: string): T | undefined {
  try {
    return (cradle[key] ?? undefined) as T | undefined
  } catch {
    return undefined
  }
}

export function medusaSharedQuoteStore<T extends object>({
  caching,
  locking,
  warnings,
}: SharedStoreDependencies): SharedQuoteStore<T> | undefined {
  if (!caching) {
    return undefined
  }
  const warn = (what: string, error: unknown) =>
    warnings.warn(
      "shared-quote-cache",
      `lastmile: the shared quote cache failed (${what}: ${error instanceof Error ? error.name : "error"}); quotes are fetched per instance meanwhile`
    )
  return {
    singleFlight: Boolean(locking),
    async get(key) {
      try {
        const hit = (await caching.get({ key: PREFIX + key })) as SharedValue<T> | null
        return hit && typeof hit === "object" && "value" in hit ? hit : undefined
      } catch (error) {
        warn("read", error)
        return undefined
      }
    },
    async set(key, value, ttlMs) {
      try {
        await caching.set({
          key: PREFIX + key,
          data: value,
          ttl: Math.max(1, Math.ceil(ttlMs / 1000)),
          options: { autoInvalidate: false },
        })
      } catch (error) {
        warn("write", error)
      }
    },
    async exclusive(key, waitMs, job) {
      if (!locking) {
        return job()
      }
      // Locking's timeout is in whole seconds: the time allowed to wait for the lock.
      return locking.execute(`${PREFIX}${key}`, job, { timeout: Math.max(1, Math.floor(waitMs / 1000)) })
    },
  }
}
