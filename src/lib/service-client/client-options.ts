/** What a client is made with, and what its calls take and give besides the service's shapes. */
import type { Dispatcher } from "undici"
import type { RetryPolicy } from "./retry-policy"
import type { ServiceTask } from "./schemas"
import type { LastmileLogger } from "./transport"

export interface LastmileTimeouts {
  /** Total budget of a checkout quote, retries included. */
  quoteBudgetMs: number
  /** One booking attempt (delivery or return). */
  bookingMs: number
  /** One lookup attempt. */
  lookupMs: number
  /** One attempt at listing or updating fulfilment locations. */
  locationsMs: number
  /** Connecting a socket, within the attempt's time. */
  connectMs: number
}

export const DEFAULT_TIMEOUTS: LastmileTimeouts = {
  quoteBudgetMs: 3000,
  bookingMs: 10_000,
  lookupMs: 5000,
  locationsMs: 5000,
  connectMs: 2000,
}

/** Where the location list is (§4.6 shows the path, not its prefix); `locationsPath` sets another. */
export const DEFAULT_LOCATIONS_PATH = "/fulfilment-locations"

export interface LastmileClientOptions {
  apiKey: string
  /** Root of the service's API; a path prefix (e.g. `/v1`) is kept. */
  baseUrl: string
  timeouts?: Partial<LastmileTimeouts>
  retry?: Partial<RetryPolicy>
  /** The location list's path below the base URL. Default `/fulfilment-locations`. */
  locationsPath?: string
  /** The process's pool for the service's origin by default; tests may inject one. Never the global one. */
  dispatcher?: Dispatcher
  logger?: LastmileLogger
  userAgent?: string
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

export type CallOptions = { signal?: AbortSignal }

export interface QuoteCallOptions extends CallOptions {
  /** Overrides the quote budget for this call. */
  budgetMs?: number
}

export interface BookingResult {
  task: ServiceTask
  /** True when the task was found by the lookup rather than read from the booking answer. */
  adopted: boolean
  /** Booking POSTs sent. */
  attempts: number
}
