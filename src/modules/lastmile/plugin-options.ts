/**
 * The plugin's own options (`plugins: [{ resolve: "medusa-plugin-lastmile", options }]`),
 * which Medusa hands to the plugin's module. The provider has its own options.
 */
export interface LastmilePluginOptions {
  /** When to book: when the order is placed (default), or when the merchant creates the fulfillment. */
  booking_trigger?: "order_placed" | "fulfillment"
}

export interface ResolvedPluginOptions {
  bookingTrigger: "order_placed" | "fulfillment"
}

export function resolvePluginOptions(options: LastmilePluginOptions | undefined): ResolvedPluginOptions {
  const trigger = options?.booking_trigger ?? "order_placed"
  if (trigger !== "order_placed" && trigger !== "fulfillment") {
    throw new Error(
      `medusa-plugin-lastmile: booking_trigger must be "order_placed" or "fulfillment", not ${JSON.stringify(trigger)}`
    )
  }
  return { bookingTrigger: trigger }
}
