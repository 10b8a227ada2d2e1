/**
 * List answers, whose envelope and paging the spec does not show (§4.3, §4.6): a bare list or an envelope under one
 * of the keys below, and an envelope's `next` link; no other paging is guessed.
 */

export interface ListPage {
  items: unknown[]
  /** The following page's link; absent on the last (or only) page. */
  next?: string
}

const TASKS = ["tasks", "deliveries"] as const
const ANY = ["data", "items", "results"] as const
const LOCATIONS = ["fulfilmentLocations", "fulfillmentLocations", "locations"] as const
/** The keys under which an envelope may hold the list, most specific first. */
export const TASK_LIST_KEYS = [...TASKS, ...ANY, "locations", "fulfilmentLocations", "fulfillmentLocations"] as const
export const LOCATION_LIST_KEYS = [...LOCATIONS, ...ANY, ...TASKS] as const

/** The list in `value` (a bare array, or an envelope holding it under one of `keys`) and its next link; undefined when there is no list. */
export function readListPage(value: unknown, keys: readonly string[]): ListPage | undefined {
  if (Array.isArray(value)) {
    return { items: value }
  }
  if (!isRecord(value)) {
    return undefined
  }
  const key = keys.find((k) => Array.isArray(value[k]))
  if (!key) {
    return undefined
  }
  const next = typeof value.next === "string" && value.next.trim() ? value.next.trim() : undefined
  return { items: value[key] as unknown[], ...(next ? { next } : {}) }
}

/** A request of a list: its full path on the service's origin and its query. */
export type PageRequest = { path: string; query: URLSearchParams }

export type NextPageRequest =
  | { ok: true; request: PageRequest }
  | { ok: false; reason: "other_origin"; origin: string }
  | { ok: false; reason: "unreadable_link" }

/**
 * The request a next link names, read against the page that gave it. The
 * first request's query (the lookup's `merchantOrderId`) is kept under what
 * the link sets. A link to another origin is refused: the request would
 * carry the API key there.
 */
export function nextPageRequest(
  href: string,
  { origin, first, current }: { origin: string; first: PageRequest; current: PageRequest }
): NextPageRequest {
  const currentQuery = current.query.toString()
  let url: URL
  try {
    url = new URL(href, `${origin}${current.path}${currentQuery ? `?${currentQuery}` : ""}`)
  } catch {
    return { ok: false, reason: "unreadable_link" }
  }
  if (url.origin !== origin) {
    return { ok: false, reason: "other_origin", origin: url.origin }
  }
  const query = new URLSearchParams(first.query)
  for (const key of new Set(url.searchParams.keys())) {
    query.delete(key)
  }
  for (const [key, value] of url.searchParams) {
    query.append(key, value)
  }
  return { ok: true, request: { path: url.pathname, query } }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}
