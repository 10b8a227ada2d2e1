/**
 * A change to what checkout shows, made in the admin or by any workflow: the rates route reads the store again at once
 * (decision 40).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { CheckoutAnswersService } from "../modules/lastmile/services/checkout-answers"

export default async function lastmileCheckoutChanged({ container }: SubscriberArgs<unknown>): Promise<void> {
  CheckoutAnswersService.of(container).changed()
}

const changed = (entity: string, actions = ["created", "updated", "deleted", "restored"]) =>
  actions.map((action) => `${entity}.${action}`)

export const config: SubscriberConfig = {
  event: [
    ...changed("fulfillment.shipping-option"),
    ...changed("fulfillment.shipping-option-rule"),
    ...changed("fulfillment.service-zone"),
    ...changed("fulfillment.geo-zone"),
    ...changed("fulfillment.fulfillment-set"),
    ...changed("stock_location.stock-location"),
    ...changed("stock_location.stock-location-address"),
    ...changed("LinkSalesChannelStockLocation", ["attached", "detached"]),
    ...changed("LinkLocationFulfillmentSet", ["attached", "detached"]),
    ...changed("LinkProductShippingProfile", ["attached", "detached"]),
  ],
  context: { subscriberId: "lastmile-checkout-changed" },
}
