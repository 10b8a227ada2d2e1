import type { OperatingHours } from "./collection-readiness"

/**
 * The service's operations, as faults and the request log name them: the plugin's client uses the same names
 * (`LastmileOperation`; the plugin's `npm run typecheck` fails when the two differ).
 */
export type SimulatorOperation =
  "quote" | "bookDelivery" | "lookupDelivery" | "bookReturn" | "listLocations" | "updateLocation"

export interface SimAddress {
  line1: string
  city: string
  postcode: string
  country: string
  [extra: string]: unknown
}

export interface SimLocation {
  fulfilmentLocationId: string
  /** What the merchant's platform calls the store; null until mapped. */
  externalLocationId: string | null
  name: string
  address: SimAddress
  operatingHours: OperatingHours
  collectionEnabled: boolean
  /** Whether deliveries are dispatched from here (stock counted for delivery rates). */
  deliveryEnabled?: boolean
  /** Overrides the merchant's default cutoff (minutes before closing). */
  collectionCutoffMinutes?: number
  /** Overrides the generated after-cutoff sentence. */
  afterCutoffDescription?: string
  /** Minor units; overrides the default collection price. */
  collectionPrice?: number
  /** Units on hand per merchantProductId. */
  stock: Record<string, number>
}

export interface DeliveryService {
  deliveryType: string
  rateCode: string
  name: string
  /** Display text of the rate; a sentence from the window when unset (or null with `nullOptionalFields`). */
  description?: string
  /** Minor units. */
  price: number
  co2Savings?: number
  /** Days from today of the delivery window, in the service's time zone. */
  daysAhead: number
  windowFrom: string
  windowTo: string
  /** When set, the rate is quoted carrying this as its `error`, and without a price (the error's shape is not shown). */
  unavailable?: unknown
}

export interface SimulatorConfig {
  apiKey: string
  /** Base of tracking URLs; the server's own URL when unset. */
  publicUrl?: string
  /** Where status-change webhooks are POSTed; none are sent when unset. */
  webhookUrl?: string
  /** ISO currency of every price. */
  currency: string
  timezone: string
  deliveryServices: DeliveryService[]
  collection: {
    /** Minor units. */
    price: number
    /** The spec shows both forms; which one a real service uses is not shown. */
    priceForm: "object" | "number"
    /** Put the store's externalLocationId on each SVC_COL rate, or leave the store to be read from name and description. */
    locationField: boolean
    /** Stores that cannot offer collection: left out, or listed as SVC_COL rates carrying `error` (spec §7.2). */
    unavailable: "omit" | "error"
    defaultCutoffMinutes: number
    readyInMinutes: number
  }
  /** Postcode prefixes the service cannot serve at all: quotes answer `rates: []`. */
  unservedPostcodePrefixes: string[]
  /** Postcode prefixes where delivery rates carry `error` (PARTIAL eligibility). */
  noDeliveryPostcodePrefixes: string[]
  /** Quotes go stale after this long (spec: about 2 minutes). */
  quoteTtlMs: number
  /** How a repeated booking of the same merchantOrderId answers (not shown). */
  duplicateBooking: "existing" | "conflict"
  /** Shape of GET /task/deliveries?merchantOrderId= (not shown). */
  lookupShape: "list" | "single" | "envelope"
  /**
   * Shape of the location list (not shown): a bare array, `{fulfilmentLocations: [...]}`,
   * or pages of `{data: [...], next: "<path>?page=N" | null}`.
   */
  locationsShape: "array" | "envelope" | "paged"
  /** Locations per page of the "paged" shape. */
  locationsPageSize: number
  /** "spec" leaves the non-spec `name`, `deliveryEnabled` and `collectionCutoffMinutes` off listed locations. */
  locationFields: "named" | "spec"
  /**
   * Shape of a location's `operatingHours` (not shown): "days", `{timezone, days: {mon: {open, close}, sun: null}}`; or
   * "list", `{timeZone, days: [{dayOfWeek: "MONDAY", opensAt, closesAt}, {dayOfWeek: "SUNDAY", closed: true}]}`.
   */
  hoursShape: "days" | "list"
  /** Append one unreadable item to the location list (`fulfilmentLocationId: null`, `collectionEnabled: "yes"`). */
  junkLocation: boolean
  /** Path of the location list (its prefix is not shown). */
  locationsListPath: string
  /** Whether delivery rates carry the non-spec `deliveryType` field. */
  rateDeliveryTypeField: boolean
  /** "per_quote" mints fresh delivery rate codes for every quote (`ND-STD-q17`); "stable" uses the configured codes. */
  rateCodes: "stable" | "per_quote"
  /** Send null for the optional fields a rate or location does not have, instead of leaving them out. */
  nullOptionalFields: boolean
  /** "no_tracking_url" answers the booking POST with `trackingUrl: null` (the lookup still shows it). */
  bookingAnswer: "full" | "no_tracking_url"
  /**
   * When set, every task shows this as its `trackingUrl`, in answers and
   * webhooks: a service sending a link it should not (`javascript:alert(1)`).
   */
  trackingUrl?: string
  /** What new tracking codes start with. Default `LM`. */
  trackingIdPrefix?: string
  /**
   * Order in which `advance` moves a delivery (the spec shows only
   * NOT_STARTED; every later value is the simulator's choice, per profile).
   */
  statusFlow: string[]
  /** Order in which `advance` moves a collection (a task booked with SVC_COL). */
  collectionStatusFlow: string[]
  /** Order in which `advance` moves a return. */
  returnStatusFlow: string[]
  /** The status of a delivery told to fail an attempt (`failAttempt`); the next `advance` sends it out again. */
  failedAttemptStatus: string
  /**
   * A task shows no delivery window (not shown). `true`: a delivery sent out again after a failed attempt shows its
   * new window (`window {from, to}`, 2 to 6 hours from then), as a service might; default false.
   */
  reattemptWindow?: boolean
  /**
   * Whether GET /task/deliveries?merchantOrderId= finds return tasks too (not shown).
   * "hidden" answers for an order with only a return as if it had no task.
   */
  returnLookup: "listed" | "hidden"
  /** The `taskType` a return task shows (not shown); null leaves the field out of return tasks. */
  returnTaskType: string | null
  /**
   * Whether a repeated POST /task/returns with the same merchantOrderId answers like a
   * repeated delivery booking (see duplicateBooking) instead of creating a second return (not shown).
   */
  returnDeduplication: boolean
  /** The status a task moves to when the merchant cancels it in the service's app (the API has no cancel). */
  cancelledStatus: string
  /**
   * Whether a booking's `order.note` (the shopper's note to the courier, which the spec does not show) is taken and
   * kept on the task, or refused with a 400 as a field the service does not know. Default "accept"; `strict` refuses
   * it unless told the service takes it.
   */
  orderNote: "accept" | "refuse"
  webhook: {
    /** "full" carries the task; "minimal" only its id (the payload is not shown). */
    payload: "full" | "minimal"
    /** Sign each body with HMAC-SHA256 under this secret (how the service signs is not shown). */
    signingSecret?: string
    /** Header carrying the signature. Default x-lastmile-signature. */
    signatureHeader?: string
    retryBaseMs: number
    retryMaxMs: number
    maxAttempts: number
  }
}

export interface SimTask {
  taskId: number
  createdAt: string
  /** What the task is; what a return shows as its `taskType` is configured (returnTaskType). */
  taskType: "DELIVERY" | "RETURN"
  status: { taskId: number; value: string }
  deliveryType: string
  trackingId: string
  trackingUrl: string
  rateCode: string
  merchantOrderId: string
  merchantOrderName: string
  collection: unknown
  delivery: unknown
  customer: unknown
  /** The booking's `order.note`, when it carried one the service took. */
  note?: string
  statusHistory: { value: string; at: string }[]
  /** A new window after a failed attempt (only with `reattemptWindow`). */
  window?: { from: string; to: string }
}

export type FaultKind = "latency" | "status" | "timeout" | "malformed" | "dropAfterCommit" | "reset"

export interface Fault {
  operation: SimulatorOperation | "*"
  kind: FaultKind
  /** How many requests it applies to; unlimited when unset. */
  times?: number
  /** For "latency". */
  latencyMs?: number
  /** For "status": 5xx, 429, or a 4xx refusal. */
  status?: number
  /** For 429: the Retry-After header, in seconds. */
  retryAfterSeconds?: number
  /** For "status", "timeout" and "malformed": process the request before failing (a write is committed). */
  commit?: boolean
}

export interface RequestLogEntry {
  seq: number
  at: string
  method: string
  path: string
  operation: SimulatorOperation | null
  query: Record<string, string>
  body: unknown
  apiKeyValid: boolean
  contentType: string | null
  status: number | null
  fault: FaultKind | null
}

export interface WebhookAttempt {
  taskId: number
  value: string
  attempt: number
  status: number | null
  error?: string
  at: string
}

/** "strict" answers in the least convenient shapes the spec allows. */
export type SimulatorProfile = "default" | "strict"

/** A partial config whose nested groups may be partial too. */
export type SimulatorConfigPatch = Omit<Partial<SimulatorConfig>, "collection" | "webhook"> & {
  collection?: Partial<SimulatorConfig["collection"]>
  webhook?: Partial<SimulatorConfig["webhook"]>
}
