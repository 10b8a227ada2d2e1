/** Orders as the store API shows them (`*shipping_methods,*fulfillments`), in the shapes of ../contract.ts. */
import type { LastmileFulfillmentData, LastmileShippingMethodData } from "../contract.js"
import type { LastmileOrderLike } from "../types.js"

export const DELIVERY: LastmileShippingMethodData = {
  provider: "lastmile",
  kind: "delivery",
  rateCode: "ND-ECO",
  rateName: "Next day eco",
  rateChosen: true,
  description: "By cargo bike",
  window: { from: "2026-07-25T11:00:00.000Z", to: "2026-07-25T21:00:00.000Z" },
}

export const COLLECTION: LastmileShippingMethodData = {
  provider: "lastmile",
  kind: "collection",
  rateCode: "SVC_COL",
  description: "Ready to collect from 14:00 today.",
  store: {
    name: "Camden",
    address: { address_1: "12 Camden High St", city: "London", postal_code: "NW1 0JH", country_code: "gb" },
  },
}

export function booked(data: Partial<LastmileFulfillmentData> = {}) {
  const booking: LastmileFulfillmentData = {
    provider: "lastmile",
    kind: "delivery",
    taskId: 4242,
    trackingId: "LM-4242",
    trackingUrl: "https://track.example.com/LM-4242",
    ...data,
  }
  return {
    id: "ful_1",
    provider_id: "lastmile_lastmile",
    data: { ...booking },
    shipped_at: null,
    delivered_at: null,
    canceled_at: null,
    created_at: "2026-07-24T09:00:01.000Z",
  }
}

export function order(
  data: LastmileShippingMethodData = DELIVERY,
  fulfillments: NonNullable<LastmileOrderLike["fulfillments"]> = []
): LastmileOrderLike {
  const name = data.kind === "collection" ? "Collect from Camden" : "Next day delivery"
  return { id: "order_1", shipping_methods: [{ name, data: { ...data } }], fulfillments }
}
