/**
 * The order of the rates route's rows (decision 66): deliveries first by name, then the stores nearest the shopper:
 * by distance when the storefront sent its position and the store's is known, else by postcode, then by name.
 */
import { type PostalPlace, distanceKm, postcodeTier } from "../collection/store-order"
import type { StorePosition } from "../collection/pickup-settings"
import type { LastmileOptionRate, LastmileRatesResponse } from "./option-rate"

/** A store's address as the ordering reads it (its postcode and country). */
export type StoreRowPlace = PostalPlace | null

const byName = (a: LastmileOptionRate, b: LastmileOptionRate) => a.name.localeCompare(b.name)

/** Deliveries by name, then stores: those in the shopper's postcode district, then its area, then the rest, by name. */
export function storesInPostcodeOrder(
  rates: LastmileOptionRate[],
  shopper: PostalPlace | null,
  places: ReadonlyMap<string, StoreRowPlace>
): LastmileOptionRate[] {
  const deliveries = rates.filter((r) => r.type === "delivery").sort(byName)
  const tier = (rate: LastmileOptionRate) => {
    const place = places.get(rate.shipping_option_id)
    return shopper && place ? postcodeTier(shopper, place) : 0
  }
  const stores = rates
    .filter((r) => r.type !== "delivery")
    .map((rate) => ({ rate, tier: tier(rate) }))
    .sort((a, b) => b.tier - a.tier || byName(a.rate, b.rate))
    .map(({ rate }) => rate)
  return [...deliveries, ...stores]
}

/**
 * The answer with each store's distance from `near` where the store's position is known, and the stores nearest
 * first; a store without a position keeps its place after them, in the postcode order the answer had.
 */
export function nearestFirst(
  answer: LastmileRatesResponse,
  near: StorePosition,
  positions: ReadonlyMap<string, StorePosition | null>
): LastmileRatesResponse {
  const deliveries = answer.rates.filter((r) => r.type === "delivery")
  const stores = answer.rates
    .filter((r) => r.type !== "delivery")
    .map((rate) => {
      const position = positions.get(rate.shipping_option_id)
      return { ...rate, distance_km: position ? distanceKm(near, position) : null }
    })
  // A stable sort: rows without a distance keep the order they came in.
  stores.sort((a, b) => {
    if (a.distance_km === null || b.distance_km === null) {
      return a.distance_km === b.distance_km ? 0 : a.distance_km === null ? 1 : -1
    }
    return a.distance_km - b.distance_km || byName(a, b)
  })
  return { ...answer, rates: [...deliveries, ...stores] }
}
