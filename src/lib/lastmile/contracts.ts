/**
 * The plugin's own JSON, defined once: what `validateFulfillmentData` stores
 * on a shipping method (and booking reads back), and what a booking puts in
 * a fulfillment's `data` and labels. Read with these schemas wherever the
 * JSON comes back from Medusa, so an older or foreign shape is refused in one
 * place instead of being cast.
 */
import { z } from "zod"

const window = z.object({ from: z.string(), to: z.string() })

/**
 * A lastmile shipping method's `data`. Fields added in later versions are
 * optional, so a method chosen before an upgrade is still booked.
 */
export const shippingMethodDataSchema = z.looseObject({
  optionId: z.string().min(1),
  kind: z.enum(["delivery", "collection"]).optional(),
  deliveryType: z.string().optional(),
  /** null when offered at the outage fallback price without a chosen rate. */
  rateCode: z.string().nullish(),
  /** The rate's name: a quote may mint new codes, so booking finds the rate again by it. */
  rateName: z.string().nullish(),
  /** True when the shopper chose the rate (`data.rate_code`); else the option's rule picked it. */
  rateChosen: z.boolean().optional(),
  stockLocationId: z.string().nullish(),
  /** The store's external id (collection only). */
  merchantLocationId: z.string().nullish(),
  /** The shopper's phone in international format. */
  phoneNumber: z.string().nullish(),
  description: z.string().nullish(),
  window: window.nullish(),
  /** Minor units of `quotedCurrency`, as quoted at selection. */
  quotedAmount: z.number().nullish(),
  quotedCurrency: z.string().nullish(),
  /** When the quote behind `quotedAmount` was made (ISO 8601). */
  quotedAt: z.string().nullish(),
  fallback: z.boolean().optional(),
})
export type LastmileShippingMethodData = z.infer<typeof shippingMethodDataSchema>

/** A method's data when it is a lastmile method's, else null. */
export function readShippingMethodData(data: unknown): LastmileShippingMethodData | null {
  const parsed = shippingMethodDataSchema.safeParse(data)
  return parsed.success ? parsed.data : null
}

/** What a booking puts in a fulfillment's `data` (deliveries and returns). */
export const fulfillmentDataSchema = z.looseObject({
  taskId: z.union([z.number(), z.string().min(1)]),
  trackingId: z.string().nullish(),
  trackingUrl: z.string().nullish(),
  /** The service's status value at booking. */
  status: z.string().nullish(),
  rateCode: z.string().nullish(),
  deliveryType: z.string().nullish(),
  merchantLocationId: z.string().nullish(),
  stockLocationId: z.string().nullish(),
  /** True when the task was found by the lookup rather than read from the booking answer. */
  adopted: z.boolean().optional(),
  bookedAt: z.string().optional(),
})
export type LastmileFulfillmentData = z.infer<typeof fulfillmentDataSchema>

/** A fulfillment's data when it holds a lastmile booking, else null. */
export function readFulfillmentData(data: unknown): LastmileFulfillmentData | null {
  const parsed = fulfillmentDataSchema.safeParse(data)
  return parsed.success ? parsed.data : null
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

/** What the booking workflow hands the provider as `additional_data.lastmile`. */
export const bookingAdditionalDataSchema = z.looseObject({
  /** The address of the location the parcel leaves from (or the store, for a collection). */
  collection_address: medusaAddressSchema.nullish(),
  /** The run holds the order's lock and knows Medusa has no lastmile fulfillment: adopt a booking found at the service. */
  adopt_existing: z.boolean().optional(),
  /**
   * The run's first attempt for this order: nothing of ours can exist at the
   * service yet, so the lookup before booking is skipped (the service
   * de-duplicates on merchantOrderId all the same).
   */
  first_attempt: z.boolean().optional(),
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
