/**
 * What the plugin exchanges with the service as plain types: requests, and answers as the client hands them on
 * (parsed, `null` read as absent, unknown fields kept).
 */

export interface ServiceAddress {
  line1: string
  line2?: string
  city: string
  postcode: string
  /** Country as a name ("United Kingdom"), as the spec requires. */
  country: string
  [extra: string]: unknown
}

export interface ServiceCustomer {
  firstName: string
  lastName: string
  email: string
  /** International (E.164) format. */
  phoneNumber: string
}

export interface ServiceLineItem {
  merchantProductId: string
  quantity: number
}

export interface QuoteRequest {
  deliveryType: string
  collection: { address: ServiceAddress; merchantLocationId?: string }
  delivery: { address: ServiceAddress }
  customer: ServiceCustomer
  order: {
    merchantOrderId: string
    merchantOrderName: string
    lineItems?: ServiceLineItem[]
    /**
     * The shopper's note to the courier, at booking only and only with `send_delivery_note` (the spec does not show
     * the field; the courier's own plugins send it).
     */
    note?: string
  }
}

export interface BookingRequest extends QuoteRequest {
  rateCode: string
}

/** A price: `{amount, currency}` in minor units, or (as in the spec's collection example) a bare number. */
export type ServiceMoney = { amount: number; currency: string; [extra: string]: unknown } | number

export interface ServiceRate {
  rateCode: string
  name?: string
  description?: string
  price?: ServiceMoney
  window?: { from: string; to: string; [extra: string]: unknown }
  co2Savings?: number
  /** Present only when the rate cannot be offered; any shape. */
  error?: unknown
  [extra: string]: unknown
}

export interface InvalidRate {
  index: number
  issues: string[]
}

export interface ServiceQuote {
  eligibility?: string
  rates: ServiceRate[]
  /** Rates that failed the schema: left out of `rates`, kept here for diagnostics. */
  invalidRates: InvalidRate[]
  [extra: string]: unknown
}

export interface ServiceTask {
  taskId: number | string
  createdAt?: string
  taskType?: string
  status?: { value: string; taskId?: number | string; [extra: string]: unknown }
  deliveryType?: string
  trackingId?: string
  trackingUrl?: string
  rateCode?: string
  [extra: string]: unknown
}

export interface ServiceFulfilmentLocation {
  fulfilmentLocationId: number | string
  collectionEnabled: boolean
  externalLocationId?: string
  /** Not in the spec; read when the service sends it. */
  name?: string
  address?: unknown
  operatingHours?: unknown
  [extra: string]: unknown
}
