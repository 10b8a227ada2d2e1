/**
 * The shopper's position for the nearest stores: asked of the browser only when the shopper asks (a click is their
 * consent), kept to 3 decimals (about 100 m), so the exact position never leaves the browser.
 */

/** A position in degrees (WGS 84), as the browser's Geolocation API and a store's `metadata.latitude`/`longitude` give it. */
export interface LastmilePosition {
  latitude: number
  longitude: number
}

/** The part of the browser's `navigator.geolocation` the helper calls (structurally, so no DOM types are needed). */
export interface LastmileGeolocationLike {
  getCurrentPosition(
    success: (position: { coords: { latitude: number; longitude: number } }) => void,
    error?: ((error: { code: number; message?: string }) => void) | null,
    options?: { enableHighAccuracy?: boolean; timeout?: number; maximumAge?: number }
  ): void
}

export interface LastmilePositionOptions {
  /** How long the browser may take to find the position once the shopper allowed it. Default 10 s. */
  timeoutMs?: number
  /** A position the browser found this recently will do. Default 10 minutes. */
  maximumAgeMs?: number
  /** The Geolocation API to ask; default the browser's `navigator.geolocation` (none on a server). */
  geolocation?: LastmileGeolocationLike | null
}

/** Decimal places a position keeps: 3 is about 110 m of latitude, enough to order stores, too coarse to find a door. */
export const POSITION_DECIMALS = 3

/**
 * Asks the browser where the shopper is, rounded to 3 decimals. Call it from the shopper's own action (a "Use my
 * location" button): the browser then asks them, and nothing is asked before. Resolves null when they refuse, when
 * the position cannot be found in time, on a page that is not a secure context, and where there is no Geolocation API
 * (a server); it never rejects. The coarse position is asked for (no GPS), as the nearest stores need no more.
 */
export function requestShopperPosition(options: LastmilePositionOptions = {}): Promise<LastmilePosition | null> {
  const geolocation = options.geolocation === undefined ? browserGeolocation() : options.geolocation
  if (!geolocation) {
    return Promise.resolve(null)
  }
  return new Promise((resolve) => {
    try {
      geolocation.getCurrentPosition(
        (position) => resolve(roundPosition(position.coords)),
        () => resolve(null),
        {
          enableHighAccuracy: false,
          timeout: options.timeoutMs ?? 10_000,
          maximumAge: options.maximumAgeMs ?? 10 * 60_000,
        }
      )
    } catch {
      resolve(null)
    }
  })
}

/** The position to 3 decimals (about 100 m); null when it is not a position on Earth. */
export function roundPosition(position: LastmilePosition | null | undefined): LastmilePosition | null {
  const latitude = position?.latitude
  const longitude = position?.longitude
  if (
    typeof latitude !== "number" ||
    typeof longitude !== "number" ||
    !Number.isFinite(latitude) ||
    !Number.isFinite(longitude) ||
    Math.abs(latitude) > 90 ||
    Math.abs(longitude) > 180
  ) {
    return null
  }
  return { latitude: round(latitude), longitude: round(longitude) }
}

/** The rates route's `near` parameter, "51.461,-0.116", rounded; null for no position or one that is not on Earth. */
export function nearParam(position: LastmilePosition | null | undefined): string | null {
  const rounded = roundPosition(position)
  return rounded ? `${rounded.latitude},${rounded.longitude}` : null
}

function round(value: number): number {
  const factor = 10 ** POSITION_DECIMALS
  const rounded = Math.round(value * factor) / factor
  // -0.0001 rounds to -0, which is written "0".
  return rounded === 0 ? 0 : rounded
}

function browserGeolocation(): LastmileGeolocationLike | null {
  const nav = (globalThis as { navigator?: { geolocation?: LastmileGeolocationLike } }).navigator
  return nav?.geolocation ?? null
}
