/**
 * The messages the plugin sends: one event per step a shopper or the merchant cares about, with its default template
 * id and its channel (decisions 46 and 48).
 */

/** Messages to the shopper, in the order a task reaches them. */
export const SHOPPER_EVENTS = [
  "delivery_booked",
  "delivery_out_for_delivery",
  "delivery_problem",
  "delivery_delivered",
  "collection_booked",
  "collection_ready",
  "collection_reminder",
  "collection_extended",
  "collection_collected",
  "return_booked",
  "return_received",
] as const

/** Messages to the merchant, on the admin's feed. */
export const MERCHANT_EVENTS = [
  "merchant_booking_failed",
  "merchant_booking_needs_attention",
  "merchant_delivery_problem",
  "merchant_not_collected",
  "merchant_task_cancelled",
] as const

export type ShopperEvent = (typeof SHOPPER_EVENTS)[number]
export type MerchantEvent = (typeof MERCHANT_EVENTS)[number]
export type LastmileNotificationEvent = ShopperEvent | MerchantEvent

export const NOTIFICATION_EVENTS: readonly LastmileNotificationEvent[] = [...SHOPPER_EVENTS, ...MERCHANT_EVENTS]

export type NotificationAudience = "shopper" | "merchant"

export function audienceOf(event: LastmileNotificationEvent): NotificationAudience {
  return (MERCHANT_EVENTS as readonly string[]).includes(event) ? "merchant" : "shopper"
}

/** `delivery_out_for_delivery` → `lastmile-delivery-out-for-delivery`. */
export function defaultTemplateOf(event: LastmileNotificationEvent): string {
  return `lastmile-${event.replace(/_/g, "-")}`
}

/** How the parcel reaches the shopper, as the messages tell it. */
export type TaskMode = "delivery" | "collection" | "return"
