/**
 * The provider's options, snake_case as the host writes them, validated once at boot with one message per bad option,
 * resolved into the typed config.
 */
import { z } from "zod"

/** Quotes go stale after about 2 minutes at the service; keep a margin. */
export const MAX_QUOTE_CACHE_TTL_SECONDS = 110

export interface LastmileProviderOptions {
  /** The merchant's API key at the service (required). */
  api_key?: string
  /** Root URL of the service's API (required). */
  base_url?: string
  /** Token in the webhook URL (`/hooks/lastmile/<webhook_secret>`). */
  webhook_secret?: string
  /**
   * HMAC secret the service signs webhook bodies with, if it does (how the
   * service authenticates webhooks is not specified). Set it to require a valid signature.
   */
  webhook_signing_secret?: string
  /** Header carrying that signature (hex or base64 HMAC-SHA256 of the raw body, `sha256=` prefix allowed). Default `x-lastmile-signature`. */
  webhook_signature_header?: string
  /** Delivery types offered as options, each `lastmile-<type in kebab case>`. Default `["NEXT_DAY"]`. */
  delivery_types?: string[]
  /** Total time a checkout quote may take, retries included. Default 3000. */
  quote_budget_ms?: number
  /** One booking attempt. Default 10000. */
  booking_timeout_ms?: number
  /** One lookup attempt. Default 5000. */
  lookup_timeout_ms?: number
  /** The location list's path below `base_url` (the spec shows `/fulfilment-locations`, not its prefix). Default `/fulfilment-locations`. */
  locations_path?: string
  /** How long one quote serves a cart state. Default 30, at most 110. */
  quote_cache_ttl_seconds?: number
  /**
   * Delivery price offered while the service cannot be reached, per currency
   * in major units (`{ gbp: 5.95 }`). Unset: delivery is unavailable during an outage.
   */
  fallback_amounts?: Record<string, number>
  /** Whether the service's prices include tax. Default false (tax is added on top). */
  prices_include_tax?: boolean
  /** What the service knows a product by: the variant's SKU (default, else its id) or the variant id. */
  product_id_source?: "sku" | "variant_id"
  /** A price rise at booking accepted without asking the merchant, in percent of the checkout price. Default 0. */
  price_tolerance_percent?: number
  /**
   * Which of a delivery option's rates prices it when the shopper has not
   * chosen one (`data.rate_code`): the cheapest (default) or the one with the
   * earliest window.
   */
  delivery_rate_rule?: "cheapest" | "earliest"
  /**
   * When a refresh's quote fails for a moment (timeout, connection error, 5xx,
   * 429), the shipping method keeps the price it was chosen at while that
   * quote is younger than this. Default 10; 0 turns it off.
   */
  keep_chosen_price_minutes?: number
  /**
   * Send the shopper's note to the courier (`data.delivery_note`) at booking as `order.note`. Default false: the
   * service's spec does not show the field. A service that refuses it still gets the booking, without the note, and
   * the merchant is told (decision 63).
   */
  send_delivery_note?: boolean
}

export interface ResolvedProviderOptions {
  apiKey: string
  baseUrl: string
  webhookSecret?: string
  webhookSigningSecret?: string
  webhookSignatureHeader: string
  deliveryTypes: string[]
  quoteBudgetMs: number
  bookingTimeoutMs: number
  lookupTimeoutMs: number
  locationsPath: string
  quoteCacheTtlSeconds: number
  /** Lower-case currency code → major units. */
  fallbackAmounts: Record<string, number>
  pricesIncludeTax: boolean
  productIdSource: "sku" | "variant_id"
  priceTolerancePercent: number
  deliveryRateRule: "cheapest" | "earliest"
  keepChosenPriceMs: number
  sendDeliveryNote: boolean
}

const DELIVERY_TYPE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/

const positiveMs = (name: string, max: number) =>
  z
    .number({ error: `${name} must be a number of milliseconds` })
    .int(`${name} must be a whole number of milliseconds`)
    .min(1, `${name} must be at least 1`)
    .max(max, `${name} must be at most ${max}`)

const optionsSchema = z.object({
  api_key: z
    .string({ error: "api_key is required (the API key issued by the service)" })
    .trim()
    .min(1, "api_key is required (the API key issued by the service)"),
  base_url: z
    .string({ error: "base_url is required (the service's API root, e.g. https://api.example.com)" })
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value)
        return url.protocol === "http:" || url.protocol === "https:"
      } catch {
        return false
      }
    }, "base_url must be an absolute http(s) URL"),
  webhook_secret: z
    .string()
    .min(16, "webhook_secret must be at least 16 characters (it authenticates the webhook URL)")
    .regex(/^[A-Za-z0-9._~-]+$/, "webhook_secret may hold only letters, digits and . _ ~ - (it travels in a URL path)")
    .optional(),
  webhook_signing_secret: z
    .string({ error: "webhook_signing_secret must be a string" })
    .min(16, "webhook_signing_secret must be at least 16 characters")
    .optional(),
  webhook_signature_header: z
    .string({ error: "webhook_signature_header must be a header name" })
    .regex(/^[A-Za-z0-9-]+$/, "webhook_signature_header must be a header name, like x-lastmile-signature")
    .default("x-lastmile-signature"),
  delivery_types: z
    .array(z.string().regex(DELIVERY_TYPE, "each delivery type must be upper snake case, like NEXT_DAY"), {
      error: 'delivery_types must be a list of delivery types, like ["NEXT_DAY"]',
    })
    .min(1, "delivery_types must list at least one delivery type")
    .default(["NEXT_DAY"]),
  quote_budget_ms: positiveMs("quote_budget_ms", 30_000).default(3000),
  booking_timeout_ms: positiveMs("booking_timeout_ms", 120_000).default(10_000),
  lookup_timeout_ms: positiveMs("lookup_timeout_ms", 60_000).default(5000),
  locations_path: z
    .string({ error: "locations_path must be a path, like /fulfilment-locations" })
    .regex(/^(\/[A-Za-z0-9._~-]+)+$/, "locations_path must be a path below base_url, like /fulfilment-locations")
    .default("/fulfilment-locations"),
  quote_cache_ttl_seconds: z
    .number({ error: "quote_cache_ttl_seconds must be a number of seconds" })
    .min(0, "quote_cache_ttl_seconds must be 0 or more")
    .max(
      MAX_QUOTE_CACHE_TTL_SECONDS,
      `quote_cache_ttl_seconds must be at most ${MAX_QUOTE_CACHE_TTL_SECONDS} (quotes go stale after about 2 minutes)`
    )
    .default(30),
  fallback_amounts: z
    .record(
      z.string(),
      z
        .number({ error: "each fallback amount must be a number in major units, like 5.95" })
        .min(0, "fallback amounts must be 0 or more")
        .finite(),
      { error: "fallback_amounts must map currency codes to amounts, like { gbp: 5.95 }" }
    )
    .refine(
      (amounts) => Object.keys(amounts).every((code) => /^[A-Za-z]{3}$/.test(code)),
      "fallback_amounts keys must be ISO currency codes, like gbp"
    )
    .default({}),
  prices_include_tax: z.boolean({ error: "prices_include_tax must be true or false" }).default(false),
  product_id_source: z
    .enum(["sku", "variant_id"], { error: 'product_id_source must be "sku" or "variant_id"' })
    .default("sku"),
  price_tolerance_percent: z
    .number({ error: "price_tolerance_percent must be a number of percent" })
    .min(0, "price_tolerance_percent must be 0 or more")
    .max(100, "price_tolerance_percent must be at most 100")
    .default(0),
  delivery_rate_rule: z
    .enum(["cheapest", "earliest"], { error: 'delivery_rate_rule must be "cheapest" or "earliest"' })
    .default("cheapest"),
  keep_chosen_price_minutes: z
    .number({ error: "keep_chosen_price_minutes must be a number of minutes" })
    .min(0, "keep_chosen_price_minutes must be 0 or more")
    .max(1440, "keep_chosen_price_minutes must be at most 1440 (a day)")
    .default(10),
  send_delivery_note: z.boolean({ error: "send_delivery_note must be true or false" }).default(false),
})

export class InvalidProviderOptionsError extends Error {
  constructor(readonly problems: string[]) {
    super(`medusa-plugin-lastmile: invalid provider options: ${problems.join("; ")}`)
  }
}

/** Validates and resolves the options; throws one error listing every problem. */
export function resolveProviderOptions(raw: unknown): ResolvedProviderOptions {
  const result = optionsSchema.safeParse(raw ?? {})
  if (!result.success) {
    const problems = [...new Set(result.error.issues.map((issue) => issue.message))]
    throw new InvalidProviderOptionsError(problems)
  }
  const o = result.data
  return {
    apiKey: o.api_key,
    baseUrl: o.base_url,
    webhookSecret: o.webhook_secret,
    webhookSigningSecret: o.webhook_signing_secret,
    webhookSignatureHeader: o.webhook_signature_header.toLowerCase(),
    deliveryTypes: [...new Set(o.delivery_types)],
    quoteBudgetMs: o.quote_budget_ms,
    bookingTimeoutMs: o.booking_timeout_ms,
    lookupTimeoutMs: o.lookup_timeout_ms,
    locationsPath: o.locations_path,
    quoteCacheTtlSeconds: o.quote_cache_ttl_seconds,
    fallbackAmounts: Object.fromEntries(
      Object.entries(o.fallback_amounts).map(([currency, amount]) => [currency.toLowerCase(), amount])
    ),
    pricesIncludeTax: o.prices_include_tax,
    productIdSource: o.product_id_source,
    priceTolerancePercent: o.price_tolerance_percent,
    deliveryRateRule: o.delivery_rate_rule,
    keepChosenPriceMs: o.keep_chosen_price_minutes * 60_000,
    sendDeliveryNote: o.send_delivery_note,
  }
}

interface ProviderEntry {
  resolve?: unknown
  id?: string
  options?: Record<string, unknown>
}

/**
 * The lastmile provider's entry in the app's config (the fulfillment
 * module's `providers`), under whatever `id` the host gave it, as the host
 * wrote it: the one source of the service's URL and key for code outside
 * the provider. Null when the provider is not registered.
 */
export function providerOptionsIn(config: { modules?: Record<string, unknown> }): Record<string, unknown> | null {
  const fulfillment = config.modules?.fulfillment
  const providers =
    fulfillment && typeof fulfillment === "object"
      ? ((fulfillment as { options?: { providers?: ProviderEntry[] } }).options?.providers ?? [])
      : []
  const entry = providers.find((p) => typeof p.resolve === "string" && p.resolve.includes("lastmile"))
  return entry ? (entry.options ?? {}) : null
}
