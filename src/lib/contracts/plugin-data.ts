/**
 * The plugin's own JSON in Medusa, defined once and read back only through these schemas: a shipping method's data, a
 * fulfillment's data and labels. Both are public (decision 20).
 */
import { z } from "zod"

const window = z.object({ from: z.string(), to: z.string() })

/** A store as the shopper sees it: its name, address and its own words for collecting there. */
const storeSchema = z.looseObject({
  name: z.string().nullish(),
  instructions: z.string().nullish(),
  address: z
    .looseObject({
      address_1: z.string().nullish(),
      address_2: z.string().nullish(),
      city: z.string().nullish(),
      postal_code: z.string().nullish(),
      country_code: z.string().nullish(),
    })
    .nullish(),
})
export type LastmileStoreView = z.infer<typeof storeSchema>

export const LASTMILE_DATA_MARKER = "lastmile"

/**
 * A lastmile shipping method's `data`. `provider: "lastmile"` and `kind` mark
 * it (methods chosen before 0.2 carry `optionId` instead, and a few private
 * fields that are still read but never written).
 */
export const shippingMethodDataSchema = z.looseObject({
  provider: z.literal(LASTMILE_DATA_MARKER).optional(),
  kind: z.enum(["delivery", "collection"]).optional(),
  /** Before 0.2: the fulfillment option's id (`lastmile-next-day`). */
  optionId: z.string().min(1).optional(),
  /** null when offered at the outage fallback price without a chosen rate. */
  rateCode: z.string().nullish(),
  /** The rate's name: a quote may mint new codes, so booking finds the rate again by it. */
  rateName: z.string().nullish(),
  /** True when the shopper chose the rate (`data.rate_code`); else the option's rule picked it. */
  rateChosen: z.boolean().optional(),
  description: z.string().nullish(),
  window: window.nullish(),
  /** When the quote behind the method's price was made (ISO 8601). */
  quotedAt: z.string().nullish(),
  /**
   * The cart state (address, basket) that quote was for, as a digest: the
   * price is kept through an outage only while the cart is in that state.
   * Absent on methods chosen under earlier versions.
   */
  quotedFor: z.string().nullish(),
  /** Chosen at the merchant's outage price, without a live quote. */
  fallback: z.boolean().optional(),
  /** The store to collect from (collection). */
  store: storeSchema.nullish(),
  /**
   * The shopper's note to the courier (a delivery's), cleaned: public like the address (decision 62), shown to the
   * merchant, sent at booking only with `send_delivery_note`, never copied to a fulfillment.
   */
  deliveryNote: z.string().nullish(),
})
export type LastmileShippingMethodData = z.infer<typeof shippingMethodDataSchema>

/** A method's data when it is a lastmile delivery's or collection's (either version), else null. */
export function readShippingMethodData(data: unknown): LastmileShippingMethodData | null {
  const parsed = shippingMethodDataSchema.safeParse(data)
  if (!parsed.success) {
    return null
  }
  const value = parsed.data
  return value.provider === LASTMILE_DATA_MARKER || legacyKindOf(value.optionId) !== null ? value : null
}

/** The kind a method's data says (either version), or null for data that is not a lastmile method's. */
export function methodKindOf(data: unknown): "delivery" | "collection" | null {
  const method = readShippingMethodData(data)
  if (!method) {
    return null
  }
  return method.kind ?? legacyKindOf(method.optionId)
}

function legacyKindOf(optionId: unknown): "delivery" | "collection" | null {
  if (typeof optionId !== "string" || !optionId.startsWith("lastmile-") || optionId === "lastmile-return") {
    return null
  }
  return optionId === "lastmile-collection" ? "collection" : "delivery"
}

/** A fulfillment's data while its booking is under way (the provider writes it; the booking replaces it). */
export const PENDING_BOOKING = "pending_booking"

/**
 * What a booking puts in a fulfillment's `data` (deliveries and returns).
 * Older bookings also carry rate codes and location ids; they are read, never written.
 */
export const fulfillmentDataSchema = z.looseObject({
  provider: z.literal(LASTMILE_DATA_MARKER).optional(),
  kind: z.enum(["delivery", "collection", "return"]).optional(),
  taskId: z.union([z.number(), z.string().min(1)]),
  trackingId: z.string().nullish(),
  trackingUrl: z.string().nullish(),
  /** The service's status value at booking. */
  status: z.string().nullish(),
  rateName: z.string().nullish(),
  window: window.nullish(),
  store: storeSchema.nullish(),
  bookedAt: z.string().optional(),
  /**
   * Set once Medusa's fulfillment may be cancelled although it was booked:
   * the service reported the task cancelled, or the merchant cancelled it
   * here deliberately (the task row records who and when).
   */
  cancelled: z.enum(["service", "merchant"]).optional(),
})
export type LastmileFulfillmentData = z.infer<typeof fulfillmentDataSchema>

/** A fulfillment's data when it holds a lastmile booking, else null. */
export function readFulfillmentData(data: unknown): LastmileFulfillmentData | null {
  const parsed = fulfillmentDataSchema.safeParse(data)
  return parsed.success ? parsed.data : null
}

/**
 * Whether a fulfillment holds only the provider's placeholder: Medusa created
 * it, and its booking was never recorded (the process stopped inside the
 * workflow that creates it, before the hook's booking finished).
 */
export function isPendingBooking(data: unknown): boolean {
  const placeholder = data as { provider?: unknown; status?: unknown } | null
  return (
    !!placeholder &&
    typeof placeholder === "object" &&
    placeholder.provider === LASTMILE_DATA_MARKER &&
    placeholder.status === PENDING_BOOKING &&
    readFulfillmentData(data) === null
  )
}

/** What the booking of a task puts on its fulfillment. */
export interface BookedTaskLike {
  taskId: number | string
  trackingId?: string | null
  trackingUrl?: string | null
  status?: { value?: string | null } | null
}

/** The one way a booked task becomes a fulfillment's data: deliveries, collections and returns alike. */
export function toFulfillmentData(
  task: BookedTaskLike,
  shown: {
    kind: "delivery" | "collection" | "return"
    rateName?: string | null
    window?: { from: string; to: string } | null
    store?: LastmileStoreView | null
    bookedAt?: Date
  }
): LastmileFulfillmentData {
  return {
    provider: LASTMILE_DATA_MARKER,
    kind: shown.kind,
    taskId: task.taskId,
    trackingId: task.trackingId ?? null,
    trackingUrl: task.trackingUrl ?? null,
    status: task.status?.value ?? null,
    rateName: shown.rateName ?? null,
    window: shown.window ?? null,
    ...(shown.store ? { store: shown.store } : {}),
    bookedAt: (shown.bookedAt ?? new Date()).toISOString(),
  }
}

/** A Medusa address (cart, order, fulfillment or stock location) as a quote reads it; other fields are dropped. */
export const medusaAddressSchema = z.object({
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  phone: z.string().nullish(),
  address_1: z.string().nullish(),
  address_2: z.string().nullish(),
  city: z.string().nullish(),
  postal_code: z.string().nullish(),
  country_code: z.string().nullish(),
})

export type MedusaAddress = z.infer<typeof medusaAddressSchema>

/** What the plugin's own runs hand `createOrderFulfillmentWorkflow` as `additional_data.lastmile`. */
export const bookingAdditionalDataSchema = z.looseObject({
  /** The owner of the delivery's lock the run holds, so the booking inside it takes the same lock. */
  lock_owner: z.string().optional(),
  /** The attempt the run started on the delivery's task row: the booking inside it is that attempt. */
  attempt: z.number().int().positive().optional(),
})
export type BookingAdditionalData = z.infer<typeof bookingAdditionalDataSchema>

/** The booking's additional data, or none when Medusa passed nothing readable (a merchant's own fulfillment). */
export function readBookingAdditionalData(value: unknown): BookingAdditionalData {
  const parsed = bookingAdditionalDataSchema.safeParse(value ?? {})
  return parsed.success ? parsed.data : {}
}

export interface FulfillmentLabel {
  tracking_number: string
  tracking_url: string
  label_url: string
}

/** The fulfillment's tracking labels: the service's tracking code and link (none without a code). */
export function toLabels(data: Pick<LastmileFulfillmentData, "trackingId" | "trackingUrl">): FulfillmentLabel[] {
  return data.trackingId
    ? [{ tracking_number: data.trackingId, tracking_url: data.trackingUrl ?? "", label_url: "" }]
    : []
}
