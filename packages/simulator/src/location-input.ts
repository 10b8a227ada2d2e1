/**
 * The merchant's location changes from the control API and the JS API, checked: anything wrong is refused with a 400
 * naming every field at fault, so a test's typo shows at once.
 */
import type { OpeningSpan, OperatingHours } from "./collection-readiness"
import { DAY_KEYS, type DayKey, isTimeZone } from "./local-time"
import { SimulatorError } from "./simulator-state"
import type { SimLocation } from "./types"

type Fields = Record<string, unknown>

interface FieldRule {
  /** What the value must be, for the error message. */
  expected: string
  valid: (value: unknown) => boolean
}

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/

const RULES: Record<keyof SimLocation, FieldRule> = {
  fulfilmentLocationId: { expected: "a non-empty string", valid: isText },
  externalLocationId: { expected: "a non-empty string or null", valid: (v) => v === null || isText(v) },
  name: { expected: "a non-empty string", valid: isText },
  address: { expected: "an object with line1, city, postcode and country strings", valid: isAddress },
  operatingHours: {
    expected: 'an object {timezone, days: {mon: {open: "HH:MM", close: "HH:MM"} | null, ...}}',
    valid: isOperatingHours,
  },
  collectionEnabled: { expected: "a boolean", valid: isBoolean },
  deliveryEnabled: { expected: "a boolean", valid: isBoolean },
  collectionCutoffMinutes: { expected: "a whole number of minutes from 0", valid: isCount },
  afterCutoffDescription: { expected: "a non-empty string", valid: isText },
  collectionPrice: { expected: "a whole number of minor units from 0", valid: isCount },
  stock: { expected: "an object of units (whole numbers from 0) per merchantProductId", valid: isStock },
}

/** Fields a new location must carry; the others are optional or defaulted. */
const REQUIRED: (keyof SimLocation)[] = [
  "fulfilmentLocationId",
  "name",
  "address",
  "operatingHours",
  "collectionEnabled",
]

/**
 * A new location. `externalLocationId` defaults to null (not mapped to the
 * platform yet) and `stock` to nothing on hand, as for a store just created.
 */
export function locationOf(body: unknown): SimLocation {
  const fields = objectOf(body, "a location")
  const missing = REQUIRED.filter((key) => fields[key] === undefined)
  const invalid = invalidFields(fields)
  refuseIfAny("location", missing, invalid)
  return structuredClone({ externalLocationId: null, stock: {}, ...fields }) as SimLocation
}

/** Some fields of a location, each replacing the stored one whole. */
export function locationPatchOf(body: unknown): Partial<SimLocation> {
  const fields = objectOf(body, "an object of location fields")
  refuseIfAny("location patch", [], invalidFields(fields))
  return structuredClone(fields) as Partial<SimLocation>
}

/** `{ "<merchantProductId>": units, ... }`, merged into a location's stock. */
export function stockPatchOf(body: unknown): Record<string, number> {
  const stock = objectOf(body, 'an object of units per merchantProductId ({"SKU-A": 3})')
  const invalid = Object.entries(stock)
    .filter(([sku, units]) => !sku.trim() || !isCount(units))
    .map(([sku]) => `${sku || '""'} (a whole number of units from 0)`)
  refuseIfAny("stock patch", [], invalid)
  return { ...(stock as Record<string, number>) }
}

function objectOf(body: unknown, expected: string): Fields {
  if (!isObject(body)) {
    throw new SimulatorError(400, "VALIDATION_ERROR", `The body must be ${expected}`)
  }
  return body
}

/** Unknown fields count as invalid: a misspelt field would otherwise change nothing, silently. */
function invalidFields(fields: Fields): string[] {
  return Object.entries(fields).flatMap(([key, value]) => {
    // Own keys only: "toString" and the like are no location fields either.
    if (!Object.hasOwn(RULES, key)) {
      return [`${key} (not a location field)`]
    }
    const rule = RULES[key as keyof SimLocation]
    return rule.valid(value) ? [] : [`${key} (${rule.expected})`]
  })
}

function refuseIfAny(what: string, missing: string[], invalid: string[]): void {
  if (!missing.length && !invalid.length) {
    return
  }
  const parts = [
    missing.length ? `missing ${missing.join(", ")}` : "",
    invalid.length ? `invalid ${invalid.join(", ")}` : "",
  ].filter(Boolean)
  throw new SimulatorError(400, "VALIDATION_ERROR", `The ${what} is not valid: ${parts.join("; ")}`, {
    missing,
    invalid,
  })
}

function isObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function isText(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== ""
}

function isBoolean(value: unknown): boolean {
  return typeof value === "boolean"
}

function isCount(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0
}

function isAddress(value: unknown): boolean {
  return isObject(value) && ["line1", "city", "postcode", "country"].every((field) => isText(value[field]))
}

function isStock(value: unknown): boolean {
  return isObject(value) && Object.entries(value).every(([sku, units]) => sku.trim() !== "" && isCount(units))
}

/** Hours the readiness rules can read: a real time zone and, per day, a span or null (closed). */
function isOperatingHours(value: unknown): value is OperatingHours {
  if (!isObject(value) || !isObject(value.days) || !isTimeZone(value.timezone)) {
    return false
  }
  return Object.entries(value.days).every(
    ([day, span]) => DAY_KEYS.includes(day as DayKey) && (span === null || isSpan(span))
  )
}

function isSpan(value: unknown): value is OpeningSpan {
  return (
    isObject(value) &&
    typeof value.open === "string" &&
    typeof value.close === "string" &&
    CLOCK.test(value.open) &&
    CLOCK.test(value.close)
  )
}
