/**
 * How near a store is to a shopper (decision 66): the distance between two positions, or, without them, whether their
 * postcodes share a district or an area.
 */
import { parse as parsePostcode } from "postcode"
import type { StorePosition } from "./pickup-settings"

const EARTH_RADIUS_KM = 6371.0088

/** The great-circle distance in kilometres (the haversine formula), to one decimal. */
export function distanceKm(a: StorePosition, b: StorePosition): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180
  const dLat = rad(b.latitude - a.latitude)
  const dLng = rad(b.longitude - a.longitude)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2
  return Math.round(2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h))) * 10) / 10
}

/** `near=lat,lng` as a storefront sends it: two numbers in range, or null. */
export function parseNear(value: unknown): StorePosition | null {
  if (typeof value !== "string") {
    return null
  }
  const match = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(value)
  if (!match) {
    return null
  }
  const latitude = Number(match[1])
  const longitude = Number(match[2])
  return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180 ? { latitude, longitude } : null
}

/**
 * How close a store's postcode is to the shopper's, without positions: 2 the same district (the outward code: SW9),
 * 1 the same area (SW), 0 neither. A UK postcode is read by the `postcode` library; elsewhere a code's leading
 * characters stand for its district and area (the first three and the first two), since postal codes there are
 * mostly ordered from the region down.
 */
export function postcodeTier(shopper: PostalPlace, store: PostalPlace): 0 | 1 | 2 {
  const a = placeOf(shopper)
  const b = placeOf(store)
  if (!a || !b || a.country !== b.country) {
    return 0
  }
  if (a.district && a.district === b.district) {
    return 2
  }
  return a.area && a.area === b.area ? 1 : 0
}

export interface PostalPlace {
  postal_code?: string | null
  country_code?: string | null
}

function placeOf(place: PostalPlace): { country: string; district: string | null; area: string | null } | null {
  const code = (place.postal_code ?? "").toUpperCase().replace(/[^A-Z0-9]/g, "")
  if (!code) {
    return null
  }
  const country = (place.country_code ?? "").toLowerCase()
  if (country === "gb" || country === "uk") {
    const parsed = parsePostcode(code)
    return parsed.valid ? { country: "gb", district: parsed.district, area: parsed.area } : null
  }
  return { country, district: code.length > 3 ? code.slice(0, 3) : null, area: code.slice(0, 2) }
}
