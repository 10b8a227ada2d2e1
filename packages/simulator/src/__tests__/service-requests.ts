/** Request bodies as the service's spec shows them, for the simulator's specs (a quote, a booking). */

interface Address {
  line1: string
  city: string
  postcode: string
  country: string
}

export interface QuoteBody {
  deliveryType: string
  collection: { address: Address; merchantLocationId?: string }
  delivery: { address: Address }
  customer: { firstName: string; lastName: string; email: string; phoneNumber: string }
  order: {
    merchantOrderId: string
    merchantOrderName: string
    lineItems?: { merchantProductId: string; quantity: number }[]
  }
}

export function quoteRequest(
  overrides: Partial<QuoteBody> & { postcode?: string; lines?: [string, number][] } = {}
): QuoteBody {
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

export function bookingRequest(
  rateCode = "NEXT_DAY",
  overrides: Partial<QuoteBody> = {}
): QuoteBody & {
  rateCode: string
} {
  return { ...quoteRequest(overrides), rateCode }
}
