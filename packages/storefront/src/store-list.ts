/**
 * The stores a delivery step shows: the nearest five (the rates route lists them nearest first), the rest behind "Show
 * all stores", the chosen store always shown; with the words a button and a live region need.
 */
import type { LastmileCollectionChoice } from "./choices.js"

/** How many stores a step shows before "Show all stores". */
export const NEAREST_STORES_SHOWN = 5

export interface LastmileStoreList {
  /**
   * The stores to draw, in the route's order (nearest first): the nearest `limit`, and the chosen store (or any key
   * in `keep`) wherever it is; every store once all are shown.
   */
  shown: LastmileCollectionChoice[]
  /** How many stores "Show all stores" would add; 0 when every store is shown. */
  more: number
  /** Every store is shown: asked for, or there are no more than `limit`. */
  all: boolean
  /** The button's words while some are hidden: "Show all stores (4 more)"; null when none is. */
  showAllText: string | null
  /** The stores are in order of their distance from the shopper (the rates were asked `near`, positions known). */
  byDistance: boolean
  /**
   * What is shown, for a polite live region when it changes (all shown, a position used): "Showing the 5 stores
   * nearest you, of 9.", "Showing 5 of 9 stores.", "Showing all 9 stores."; null with no store or none hidden by a
   * limit.
   */
  summary: string | null
}

export interface LastmileStoreListOptions {
  /** Show every store (the shopper pressed "Show all stores"). Default false. */
  showAll?: boolean
  /** How many of the nearest are shown before the rest. Default 5. */
  limit?: number
  /** Keys to keep shown besides the chosen one (`selectedKey`): a store on its way to the cart, one the keyboard reached. */
  keep?: readonly (string | null | undefined)[]
}

/**
 * The stores of a step to show: the nearest `limit` of `collection` (already nearest first), plus the chosen store
 * when it is further away, so the shopper always sees what the cart holds.
 */
export function listStores(
  step: { collection: readonly LastmileCollectionChoice[]; selectedKey?: string | null },
  options: LastmileStoreListOptions = {}
): LastmileStoreList {
  const all = step.collection
  const limit = Math.max(0, Math.floor(options.limit ?? NEAREST_STORES_SHOWN))
  const byDistance = all.some((store) => store.distanceKm !== null)
  const kept = new Set([step.selectedKey, ...(options.keep ?? [])].filter((key): key is string => !!key))
  const shown = options.showAll ? [...all] : all.filter((store, index) => index < limit || kept.has(store.key))
  const more = all.length - shown.length
  return {
    shown,
    more,
    all: more === 0,
    showAllText: more > 0 ? `Show all stores (${more} more)` : null,
    byDistance,
    summary: summaryOf(shown.length, all.length, byDistance, options.showAll === true && all.length > limit),
  }
}

function summaryOf(shown: number, total: number, byDistance: boolean, revealed: boolean): string | null {
  if (!total || (shown === total && !revealed)) {
    return null
  }
  const stores = (n: number) => `${n} ${n === 1 ? "store" : "stores"}`
  if (shown === total) {
    return byDistance ? `Showing all ${stores(total)}, nearest you first.` : `Showing all ${stores(total)}.`
  }
  return byDistance ? `Showing the ${stores(shown)} nearest you, of ${total}.` : `Showing ${shown} of ${stores(total)}.`
}
