/**
 * A store's own words for collecting there, the dates it is closed besides its weekly hours (decision 65), and its
 * position: how they are kept on Medusa's stock location and read back, leniently, whatever an older version wrote.
 */
import { DateTime } from "luxon"
import { cleanText } from "../support/clean-text"

/** The key under the stock location's `address.metadata`, which Medusa hands the provider with the location. */
export const PICKUP_METADATA_KEY = "lastmile_pickup"

export const MAX_INSTRUCTIONS_LENGTH = 500

/** At most this many closed dates are kept (a few years of holidays). */
export const MAX_CLOSED_DATES = 100

export interface PickupSettings {
  /** Cleaned (no control or invisible characters, one line), at most 500 characters; null when none. */
  instructions: string | null
  /** `YYYY-MM-DD` in the store's own calendar, unique and sorted. */
  closed_dates: string[]
}

export interface StorePosition {
  latitude: number
  longitude: number
}

export const NO_PICKUP_SETTINGS: PickupSettings = { instructions: null, closed_dates: [] }

/** How far ahead a closed date may be set, in years. */
export const MAX_CLOSED_YEARS_AHEAD = 3

/** Whether a `YYYY-MM-DD` date is at most `MAX_CLOSED_YEARS_AHEAD` years from `today`. */
export function isWithinClosedRange(date: string, today: DateTime = DateTime.utc()): boolean {
  return date <= today.plus({ years: MAX_CLOSED_YEARS_AHEAD }).toISODate()!
}

/** Whether `value` is a real calendar date written `YYYY-MM-DD` (2025-02-30 is not). */
export function isCalendarDate(value: unknown): value is string {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value).isValid
}

/** Instructions as they are kept: cleaned like the service's text, trimmed, null when nothing is left. */
export function cleanInstructions(value: string | null | undefined): string | null {
  const text = value ? cleanText(value, Number.POSITIVE_INFINITY).replace(/ {2,}/g, " ").trim() : ""
  return text ? text : null
}

/** Dates as they are kept: the valid ones, unique and sorted. */
export function cleanClosedDates(values: readonly unknown[]): string[] {
  return [...new Set(values.filter(isCalendarDate))].sort()
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

/** What a stock location's address metadata says of its pickup; anything unreadable reads as nothing. */
export function readPickupSettings(addressMetadata: unknown): PickupSettings {
  const kept = objectOf(objectOf(addressMetadata)?.[PICKUP_METADATA_KEY])
  if (!kept) {
    return NO_PICKUP_SETTINGS
  }
  const instructions = typeof kept.instructions === "string" ? cleanInstructions(kept.instructions) : null
  const dates = Array.isArray(kept.closed_dates) ? cleanClosedDates(kept.closed_dates) : []
  return {
    instructions: instructions ? instructions.slice(0, MAX_INSTRUCTIONS_LENGTH) : null,
    closed_dates: dates.slice(0, MAX_CLOSED_DATES),
  }
}

/** The address metadata that keeps `settings` (Medusa merges address metadata: the key is written whole). */
export function pickupMetadataOf(settings: PickupSettings): Record<string, unknown> {
  return { [PICKUP_METADATA_KEY]: { instructions: settings.instructions, closed_dates: settings.closed_dates } }
}

function coordinate(value: unknown, limit: number): number | null {
  const number = typeof value === "string" && value.trim() ? Number(value) : value
  return typeof number === "number" && Number.isFinite(number) && Math.abs(number) <= limit ? number : null
}

/**
 * The store's position from its stock location's own `metadata.latitude` / `metadata.longitude` (numbers, or
 * numbers written as text, as Medusa's dashboard saves metadata); null unless both are readable.
 */
export function readStorePosition(metadata: unknown): StorePosition | null {
  const fields = objectOf(metadata)
  const latitude = coordinate(fields?.latitude, 90)
  const longitude = coordinate(fields?.longitude, 180)
  return latitude === null || longitude === null ? null : { latitude, longitude }
}

/** What the merchant asks to change (POST /admin/lastmile/stock-locations/:id/pickup): each field given replaces. */
export interface PickupChange {
  instructions?: string | null
  closed_dates?: string[]
  position?: StorePosition | null
}

/** The stock location's pickup as kept now, and what it must be once the change is made. */
export interface PickupPlan {
  pickup: PickupSettings
  position: StorePosition | null
  /** The address's metadata to write (a whole `lastmile_pickup` key); null when the pickup does not change. */
  address_metadata: Record<string, unknown> | null
  /** The location's own metadata keys to write (`""` removes a key, Medusa's convention); null when unchanged. */
  metadata: Record<string, unknown> | null
}

/**
 * The change as it will be kept: instructions cleaned and capped, dates unique and sorted. A pickup change on a
 * location without an address is refused: the pickup rides on the address Medusa hands the provider.
 */
export function planPickupChange(
  current: { pickup: PickupSettings; position: StorePosition | null; has_address: boolean },
  change: PickupChange,
  /** Dates before this `YYYY-MM-DD` have passed and are dropped, so old holidays never fill the list. */
  keepFrom: string = DateTime.utc().minus({ days: 1 }).toISODate()!
): { ok: true; plan: PickupPlan } | { ok: false; message: string } {
  const pickup: PickupSettings = {
    instructions:
      change.instructions === undefined ? current.pickup.instructions : cleanInstructions(change.instructions),
    closed_dates: (change.closed_dates === undefined
      ? current.pickup.closed_dates
      : cleanClosedDates(change.closed_dates)
    ).filter((date) => date >= keepFrom),
  }
  if ((pickup.instructions?.length ?? 0) > MAX_INSTRUCTIONS_LENGTH) {
    return { ok: false, message: `instructions can be at most ${MAX_INSTRUCTIONS_LENGTH} characters` }
  }
  const pickupChanged =
    pickup.instructions !== current.pickup.instructions ||
    pickup.closed_dates.join() !== current.pickup.closed_dates.join()
  if (pickupChanged && !current.has_address) {
    return {
      ok: false,
      message: "this stock location has no address: give it one (Settings → Locations) before its pickup instructions",
    }
  }
  const position = change.position === undefined ? current.position : change.position
  const positionChanged = JSON.stringify(position) !== JSON.stringify(current.position)
  return {
    ok: true,
    plan: {
      pickup,
      position,
      address_metadata: pickupChanged ? pickupMetadataOf(pickup) : null,
      metadata: positionChanged
        ? position
          ? { latitude: position.latitude, longitude: position.longitude }
          : { latitude: "", longitude: "" }
        : null,
    },
  }
}
