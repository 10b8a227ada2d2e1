/**
 * Shapes of the service's requests and answers. Answers are parsed leniently
 * where the spec leaves a shape open: unknown fields pass through, `price`
 * may be an object or a bare number, `error` may be anything, and list
 * answers may come bare or in an envelope.
 */
import { z } from "zod"

// ---------------------------------------------------------------- requests

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
  }
}

export interface BookingRequest extends QuoteRequest {
  rateCode: string
}

// ---------------------------------------------------------------- answers

const identifier = z.union([z.number(), z.string().min(1)])

export const moneySchema = z.union([
  z.looseObject({ amount: z.number().finite(), currency: z.string().min(1) }),
  z.number().finite(),
])
export type ServiceMoney = z.infer<typeof moneySchema>

export const rateSchema = z.looseObject({
  rateCode: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  price: moneySchema.optional(),
  window: z.looseObject({ from: z.string(), to: z.string() }).optional(),
  co2Savings: z.number().optional(),
  error: z.unknown().optional(),
})
export type ServiceRate = z.infer<typeof rateSchema>

const quoteEnvelopeSchema = z.looseObject({
  eligibility: z.string().optional(),
  rates: z.array(z.unknown()),
})

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

const statusSchema = z
  .union([z.looseObject({ value: z.string(), taskId: identifier.optional() }), z.string()])
  .transform((s) => (typeof s === "string" ? { value: s } : s))

export const taskSchema = z.looseObject({
  taskId: identifier,
  createdAt: z.string().optional(),
  taskType: z.string().optional(),
  status: statusSchema.optional(),
  deliveryType: z.string().optional(),
  trackingId: z.string().optional(),
  trackingUrl: z.string().optional(),
  rateCode: z.string().optional(),
})
export type ServiceTask = z.infer<typeof taskSchema>

export const fulfilmentLocationSchema = z.looseObject({
  fulfilmentLocationId: identifier,
  collectionEnabled: z.boolean(),
  externalLocationId: z.string().nullish(),
  address: z.unknown().optional(),
  operatingHours: z.unknown().optional(),
})
export type ServiceFulfilmentLocation = z.infer<typeof fulfilmentLocationSchema>

// ---------------------------------------------------------------- parsing

export class SchemaMismatch extends Error {
  constructor(readonly issues: string[]) {
    super(issues.join("; "))
  }
}

export function describeIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 10).map((issue) => {
    const path = issue.path.length ? issue.path.join(".") : "(root)"
    return `${path}: ${issue.message}`
  })
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value)
  if (!result.success) {
    throw new SchemaMismatch(describeIssues(result.error))
  }
  return result.data
}

/** A quote answer. A malformed rate is set aside rather than failing the quote. */
export function parseQuote(value: unknown): ServiceQuote {
  const envelope = parseWith(quoteEnvelopeSchema, value)
  const rates: ServiceRate[] = []
  const invalidRates: InvalidRate[] = []
  envelope.rates.forEach((raw, index) => {
    const result = rateSchema.safeParse(raw)
    if (result.success) {
      rates.push(result.data)
    } else {
      invalidRates.push({ index, issues: describeIssues(result.error) })
    }
  })
  return { ...envelope, rates, invalidRates }
}

export function parseTask(value: unknown): ServiceTask {
  return parseWith(taskSchema, value)
}

const LIST_ENVELOPE_KEYS = ["tasks", "deliveries", "data", "items", "results"] as const
const LOCATION_ENVELOPE_KEYS = [
  "fulfilmentLocations",
  "fulfillmentLocations",
  "locations",
  "data",
  "items",
  "results",
] as const

function unwrapList(value: unknown, keys: readonly string[]): unknown[] | undefined {
  if (Array.isArray(value)) {
    return value
  }
  if (value && typeof value === "object") {
    for (const key of keys) {
      const inner = (value as Record<string, unknown>)[key]
      if (Array.isArray(inner)) {
        return inner
      }
    }
  }
  return undefined
}

/**
 * The lookup by merchantOrderId answers "a single task or a list" (shape not
 * shown): accept a bare task, a bare list, an envelope around a list, and an
 * empty answer (nothing booked).
 */
export function parseTaskLookup(value: unknown): ServiceTask[] {
  if (value === null || value === undefined || value === "") {
    return []
  }
  const list = unwrapList(value, LIST_ENVELOPE_KEYS)
  if (list) {
    return list.map((item) => parseTask(item))
  }
  return [parseTask(value)]
}

export function parseLocations(value: unknown): ServiceFulfilmentLocation[] {
  const list = unwrapList(value, LOCATION_ENVELOPE_KEYS)
  if (!list) {
    throw new SchemaMismatch(["(root): expected a list of fulfilment locations"])
  }
  return list.map((item) => parseWith(fulfilmentLocationSchema, item))
}

/** The PATCH answer is not shown: a location when there is one, else nothing. */
export function parseOptionalLocation(value: unknown): ServiceFulfilmentLocation | undefined {
  const result = fulfilmentLocationSchema.safeParse(value)
  return result.success ? result.data : undefined
}
