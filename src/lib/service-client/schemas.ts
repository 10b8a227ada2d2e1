/**
 * The service's answers, parsed leniently where the spec leaves a shape open and cleaned first (decision 29), into
 * the contracts' types.
 */
import { z } from "zod"
import type { ServiceFulfilmentLocation, ServiceQuote, ServiceRate, ServiceTask } from "../contracts/service-shapes"
import { LOCATION_LIST_KEYS, type ListPage, TASK_LIST_KEYS, isRecord, readListPage } from "./pagination"
import { cleanServiceAnswer } from "./service-text"

const identifier = z.union([z.number(), z.string().min(1)], { error: "expected a number or a non-empty string" })

/** A finite number, or a string holding one ("0.42"); anything else is undefined. */
function toFiniteNumber(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isFinite(value) ? value : undefined
  }
  if (typeof value === "string" && /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) {
    return Number(value.trim())
  }
  return undefined
}

/**
 * A loose object (unknown fields pass through) whose optional fields read null as absent: an optional field
 * "not set" must not cost the whole object. `tidy` then sees the object before the schema does; anything but
 * an object reaches the schema as it is (and fails there).
 */
function answerObject<S extends z.core.$ZodLooseShape>(shape: S, tidy = (value: Record<string, unknown>) => value) {
  const optional = Object.keys(shape).filter((key) => shape[key] instanceof z.ZodOptional)
  const withoutNulls = (value: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(value).filter(([key, v]) => !optional.includes(key) || (v !== null && v !== undefined))
    )
  return z.preprocess((value: unknown) => (isRecord(value) ? tidy(withoutNulls(value)) : value), z.looseObject(shape))
}

export const moneySchema = z.union([
  z.looseObject({ amount: z.number().finite(), currency: z.string().min(1) }),
  z.number().finite(),
])

const windowSchema = z.looseObject({ from: z.string().min(1), to: z.string().min(1) })

function cleanRate(rate: Record<string, unknown>): Record<string, unknown> {
  // `error: false` or "" reads as "no error"; any other value means the rate cannot be offered.
  if (rate.error === false || (typeof rate.error === "string" && !rate.error.trim())) {
    delete rate.error
  }
  // A price whose currency is null reads like the spec's bare number: in the cart's currency.
  if (isRecord(rate.price) && rate.price.currency === null && typeof rate.price.amount === "number") {
    rate.price = rate.price.amount
  }
  // Window and CO2 only decorate a rate: an odd one is dropped, the rate is kept.
  if ("window" in rate && !windowSchema.safeParse(rate.window).success) {
    delete rate.window
  }
  if ("co2Savings" in rate) {
    rate.co2Savings = toFiniteNumber(rate.co2Savings)
    if (rate.co2Savings === undefined) {
      delete rate.co2Savings
    }
  }
  return rate
}

export const rateSchema = answerObject(
  {
    rateCode: z.string().min(1),
    name: z.string().optional(),
    description: z.string().optional(),
    price: moneySchema.optional(),
    window: windowSchema.optional(),
    co2Savings: z.number().optional(),
    error: z.unknown().optional(),
  },
  cleanRate
)

const quoteEnvelopeSchema = answerObject({ eligibility: z.string().optional(), rates: z.array(z.unknown()) })

const statusSchema = z
  .union([answerObject({ value: z.string(), taskId: identifier.optional() }), z.string()])
  .transform((s) => (typeof s === "string" ? { value: s } : s))

/** A task's `window` is not in the spec: one a service adds (a new window after a failed attempt) is read when it is two times, else dropped. */
function cleanTask(task: Record<string, unknown>): Record<string, unknown> {
  if ("window" in task && !windowSchema.safeParse(task.window).success) {
    delete task.window
  }
  return task
}

export const taskSchema = answerObject(
  {
    taskId: identifier,
    createdAt: z.string().optional(),
    taskType: z.string().optional(),
    status: statusSchema.optional(),
    deliveryType: z.string().optional(),
    trackingId: z.string().optional(),
    trackingUrl: z.string().optional(),
    rateCode: z.string().optional(),
    window: windowSchema.optional(),
  },
  cleanTask
)

function cleanLocation(location: Record<string, unknown>): Record<string, unknown> {
  // `name` is not in the spec: a display name of another shape is dropped, not the location.
  if ("name" in location && typeof location.name !== "string") {
    delete location.name
  }
  return location
}

export const fulfilmentLocationSchema = answerObject(
  {
    fulfilmentLocationId: identifier,
    collectionEnabled: z.boolean(),
    externalLocationId: z.string().optional(),
    name: z.string().optional(),
    address: z.unknown().optional(),
    operatingHours: z.unknown().optional(),
  },
  cleanLocation
)

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

/** Reads items one by one, so one unreadable item costs that item, not the list. */
function parseEach<T>(items: readonly unknown[], schema: z.ZodType<T>, prepare = (item: unknown) => item) {
  const parsed: T[] = []
  const rejected: { index: number; issues: string[]; item: unknown }[] = []
  items.forEach((item, index) => {
    const result = schema.safeParse(prepare(item))
    if (result.success) {
      parsed.push(result.data)
    } else {
      rejected.push({ index, issues: describeIssues(result.error), item })
    }
  })
  return { parsed, rejected }
}

/** A quote answer. A malformed rate is set aside rather than failing the quote. */
export function parseQuote(value: unknown): ServiceQuote {
  const envelope = parseWith(quoteEnvelopeSchema, cleanServiceAnswer(value))
  const { parsed: rates, rejected } = parseEach<ServiceRate>(envelope.rates, rateSchema)
  return { ...envelope, rates, invalidRates: rejected.map(({ index, issues }) => ({ index, issues })) }
}

export function parseTask(value: unknown): ServiceTask {
  return parseWith(taskSchema, cleanServiceAnswer(value))
}

/**
 * One page of the lookup by merchantOrderId, whose shape ("a single task or a
 * list") is not shown: a bare task, a bare list, an envelope around a list
 * or around one task, and an empty answer (nothing booked). `next` says
 * where the envelope puts the following page, if anywhere.
 */
export function readTaskLookupPage(value: unknown): ListPage {
  const inner = isRecord(value) ? TASK_LIST_KEYS.filter((key) => key in value).map((key) => value[key]) : []
  // A task first: it is never an envelope, even when it carries a list of its own (its items, say).
  const page = emptyOrTask(value) ?? readListPage(value, TASK_LIST_KEYS)
  // Else one task in an envelope; else not a list: read as the single task (and failing there with its issues).
  return page ?? inner.map(emptyOrTask).find((found) => found !== undefined) ?? { items: [value] }
}

function emptyOrTask(value: unknown): ListPage | undefined {
  if (value === null || value === undefined || value === "") {
    return { items: [] }
  }
  return isRecord(value) && "taskId" in value ? { items: [value] } : undefined
}

/** One page of the location list: the raw items and where the next page is. */
export function readLocationsPage(value: unknown): ListPage {
  const page = readListPage(value, LOCATION_LIST_KEYS)
  if (!page) {
    throw new SchemaMismatch(["(root): expected a list of fulfilment locations"])
  }
  return page
}

/** The readable locations, and the unreadable items (left out) with their positions in the whole list. */
export function parseLocationItems(items: readonly unknown[]) {
  const { parsed: locations, rejected } = parseEach<ServiceFulfilmentLocation>(
    items,
    fulfilmentLocationSchema,
    cleanServiceAnswer
  )
  return { locations, rejected }
}

/** The PATCH answer is not shown: a location when there is one, else nothing. */
export function parseOptionalLocation(value: unknown): ServiceFulfilmentLocation | undefined {
  const result = fulfilmentLocationSchema.safeParse(cleanServiceAnswer(value))
  return result.success ? result.data : undefined
}

export type * from "../contracts/service-shapes"
