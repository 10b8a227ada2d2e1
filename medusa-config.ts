/**
 * Development host app for this plugin (never published): it loads the
 * plugin straight from src/ (api, subscribers, jobs, links, workflows and
 * admin as the app's own; the provider and module by path) and registers the
 * provider with options from LASTMILE_* variables. With REDIS_URL set it
 * switches to Medusa's Redis event bus, workflow engine, locking and caching.
 * Medusa's local notification provider takes the shopper's `email` and `sms`
 * and the admin's `feed`, so `GET /admin/notifications` lists every message
 * sent; LASTMILE_MERCHANT_EMAILS (comma-separated) are the merchant's own
 * addresses for its alerts.
 */
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

function databaseUrl(): string {
  if (process.env.DATABASE_URL) {
    return process.env.DATABASE_URL
  }
  const user = encodeURIComponent(process.env.DB_USERNAME ?? "postgres")
  const password = process.env.DB_PASSWORD ? `:${encodeURIComponent(process.env.DB_PASSWORD)}` : ""
  const host = process.env.DB_HOST ?? "localhost"
  const port = process.env.DB_PORT ?? "5432"
  const name = process.env.DB_NAME ?? "medusa-lastmile"
  return `postgres://${user}${password}@${host}:${port}/${name}`
}

const redisUrl = process.env.REDIS_URL

/**
 * The session and token secrets: from the environment (the demo makes new
 * ones per run). Only the test runner may fall back to a fixed one: an app
 * that accepts tokens signed with a well-known secret accepts forged admins.
 */
function secret(name: "JWT_SECRET" | "COOKIE_SECRET"): string {
  const value = process.env[name]
  if (value) {
    return value
  }
  if (process.env.NODE_ENV === "test") {
    return "test-only-secret"
  }
  throw new Error(`${name} is not set: set it (the demo, npm run demo, generates one per run)`)
}

/** "gbp:5.95,eur:6.5" → { gbp: 5.95, eur: 6.5 } */
function fallbackAmounts(value: string | undefined): Record<string, number> | undefined {
  if (!value) {
    return undefined
  }
  return Object.fromEntries(
    value.split(",").map((pair) => {
      const [currency, amount] = pair.split(":")
      return [currency.trim(), Number(amount)]
    })
  )
}

function optionalNumber(value: string | undefined): number | undefined {
  return value ? Number(value) : undefined
}

/** "ops@shop.example, owner@shop.example" → ["ops@shop.example", "owner@shop.example"] */
function emailList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((address) => address.trim())
    .filter(Boolean)
}

/**
 * The plugin's messages: texts on the `sms` channel, alerts to LASTMILE_MERCHANT_EMAILS as well as the bell, and
 * anything in LASTMILE_NOTIFICATIONS (JSON) over that; LASTMILE_NOTIFICATIONS=false turns them off.
 */
function notificationOptions(): Record<string, unknown> | false {
  const more: unknown = process.env.LASTMILE_NOTIFICATIONS ? JSON.parse(process.env.LASTMILE_NOTIFICATIONS) : {}
  if (more === false) {
    return false
  }
  return {
    sms_channel: "sms",
    merchant_to: emailList(process.env.LASTMILE_MERCHANT_EMAILS),
    time_zone: process.env.LASTMILE_TIME_ZONE || undefined,
    ...(more as object),
  }
}

const lastmileOptions = {
  api_key: process.env.LASTMILE_API_KEY,
  base_url: process.env.LASTMILE_BASE_URL,
  webhook_secret: process.env.LASTMILE_WEBHOOK_SECRET || undefined,
  webhook_signing_secret: process.env.LASTMILE_WEBHOOK_SIGNING_SECRET || undefined,
  webhook_signature_header: process.env.LASTMILE_WEBHOOK_SIGNATURE_HEADER || undefined,
  fallback_amounts: fallbackAmounts(process.env.LASTMILE_FALLBACK_AMOUNTS),
  quote_budget_ms: optionalNumber(process.env.LASTMILE_QUOTE_BUDGET_MS),
  delivery_types: process.env.LASTMILE_DELIVERY_TYPES
    ? process.env.LASTMILE_DELIVERY_TYPES.split(",").map((type) => type.trim())
    : undefined,
  delivery_rate_rule: (process.env.LASTMILE_DELIVERY_RATE_RULE || undefined) as "cheapest" | "earliest" | undefined,
  keep_chosen_price_minutes: optionalNumber(process.env.LASTMILE_KEEP_CHOSEN_PRICE_MINUTES),
  // The shopper's note to the courier goes to the service as order.note only when the service takes it.
  send_delivery_note: process.env.LASTMILE_SEND_DELIVERY_NOTE
    ? process.env.LASTMILE_SEND_DELIVERY_NOTE === "true"
    : undefined,
}

/**
 * The Notification Module with Medusa's local provider (it logs each message)
 * on the channels the plugin sends on. A test may put its own provider on
 * `email` or `sms` (LASTMILE_TEST_EMAIL_PROVIDER, LASTMILE_TEST_SMS_PROVIDER: a
 * module provider's path), e.g. one that throws.
 */
const notificationModule = {
  resolve: "@medusajs/medusa/notification",
  options: {
    providers: [
      {
        resolve: process.env.LASTMILE_TEST_EMAIL_PROVIDER || "@medusajs/medusa/notification-local",
        id: "local-email",
        options: { name: "Shoppers' email (local)", channels: ["email"] },
      },
      {
        resolve: process.env.LASTMILE_TEST_SMS_PROVIDER || "@medusajs/medusa/notification-local",
        id: "local-sms",
        options: { name: "Shoppers' texts (local)", channels: ["sms"] },
      },
      {
        resolve: "@medusajs/medusa/notification-local",
        id: "local",
        options: { name: "Admin feed (local)", channels: ["feed"] },
      },
    ],
  },
}
/** LASTMILE_ANALYTICS=local: Medusa's Analytics Module with its local provider, which insights forward to. */
const analyticsModules =
  process.env.LASTMILE_ANALYTICS === "local"
    ? [
        {
          resolve: "@medusajs/medusa/analytics",
          options: { providers: [{ resolve: "@medusajs/medusa/analytics-local", id: "local" }] },
        },
      ]
    : []

const redisModules = redisUrl
  ? [
      { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl } },
      { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { redisUrl } } },
      {
        resolve: "@medusajs/medusa/locking",
        options: {
          providers: [
            { resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl } },
          ],
        },
      },
      {
        resolve: "@medusajs/medusa/caching",
        options: {
          providers: [
            { resolve: "@medusajs/medusa/caching-redis", id: "caching-redis", is_default: true, options: { redisUrl } },
          ],
        },
      },
    ]
  : []

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: databaseUrl(),
    redisUrl,
    http: {
      storeCors: process.env.STORE_CORS ?? "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS ?? "http://localhost:9000,http://localhost:5173",
      authCors: process.env.AUTH_CORS ?? "http://localhost:9000,http://localhost:5173,http://localhost:8000",
      jwtSecret: secret("JWT_SECRET"),
      cookieSecret: secret("COOKIE_SECRET"),
    },
  },
  admin: {
    disable: process.env.MEDUSA_ADMIN_DISABLED === "true",
  },
  featureFlags: redisUrl ? { caching: true } : {},
  modules: [
    // The plugin's module, loaded by path as an installed plugin's would be by name.
    {
      resolve: "./src/modules/lastmile",
      options: {
        booking_trigger: process.env.LASTMILE_BOOKING_TRIGGER || undefined,
        status_map: process.env.LASTMILE_STATUS_MAP ? JSON.parse(process.env.LASTMILE_STATUS_MAP) : undefined,
        poll_interval_seconds: optionalNumber(process.env.LASTMILE_POLL_INTERVAL_SECONDS),
        mark_returns_received: process.env.LASTMILE_MARK_RETURNS_RECEIVED
          ? process.env.LASTMILE_MARK_RETURNS_RECEIVED === "true"
          : undefined,
        backend_url: process.env.LASTMILE_BACKEND_URL || undefined,
        trust_forwarded_headers: process.env.LASTMILE_TRUST_FORWARDED_HEADERS
          ? process.env.LASTMILE_TRUST_FORWARDED_HEADERS === "true"
          : undefined,
        notifications: notificationOptions(),
        insights: process.env.LASTMILE_INSIGHTS_TIME_ZONE
          ? { time_zone: process.env.LASTMILE_INSIGHTS_TIME_ZONE }
          : undefined,
      },
    },
    {
      resolve: "@medusajs/medusa/fulfillment",
      options: {
        providers: [
          // Listing the fulfillment module replaces its defaults, so the manual provider is listed again.
          { resolve: "@medusajs/medusa/fulfillment-manual", id: "manual" },
          // Any id works (Medusa registers the provider as lastmile_<id>); a test registers it under another one.
          {
            resolve: "./src/providers/lastmile",
            id: process.env.LASTMILE_PROVIDER_CONFIG_ID || "lastmile",
            options: lastmileOptions,
          },
        ],
      },
    },
    notificationModule,
    ...redisModules,
    ...analyticsModules,
  ],
})
