/** Request bodies and a shopper's address for the plugin's unit tests of the client, the provider and the booking core. */
import type { BookingRequest, QuoteRequest } from "../../src/lib/service-client"

export function quoteRequest(
  overrides: Partial<QuoteRequest> & { postcode?: string; lines?: [string, number][] } = {}
): QuoteRequest {
  const { postcode, lines, ...rest } = overrides
  return {
    deliveryType: "NEXT_DAY",
    collection: {
      address: { line1: "Unit 7, Abbey Road", city: "London", postcode: "NW10 7SJ", country: "United Kingdom" },
    },
    delivery: {
      address: { line1: "1 Test Street", city: "London", postcode: postcode ?? "SW1A 1AA", country: "United Kingdom" },
    },
    customer: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phoneNumber: "+447700900123" },
    order: {
      merchantOrderId: "order_1",
      merchantOrderName: "#1",
      lineItems: (lines ?? [["SKU-A", 1]]).map(([merchantProductId, quantity]) => ({ merchantProductId, quantity })),
    },
    ...rest,
  }
}

export function bookingRequest(rateCode = "NEXT_DAY", overrides: Partial<QuoteRequest> = {}): BookingRequest {
  return { ...quoteRequest(overrides), rateCode }
}

/** A complete UK shipping address as Medusa holds it on a cart. */
export const ukShopperAddress = {
  first_name: "Ada",
  last_name: "Lovelace",
  phone: "07911 123456",
  address_1: "12 Long Acre",
  city: "London",
  postal_code: "WC2E 9LH",
  country_code: "gb",
}
