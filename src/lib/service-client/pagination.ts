/**
 * List answers whose envelope and paging the spec does not show: where the
 * list sits in an answer, whether the answer says there is more, and which
 * request fetches the next page. Pure functions, so each form is unit-tested
 * without a network.
 */

/** Where a list answer says the following page is. */
export type PageHint =
  | { kind: "link"; href: string }
  | { kind: "page"; page: number }
  /** More pages exist, but the answer does not say which one comes next. */
  | { kind: "unknown" }

export interface ListPage {
  items: unknown[]
  /** Absent when this is the last (or only) page. */
  next?: PageHint
}

/** The keys under which an envelope may hold the list, most specific first. */
export const TASK_LIST_KEYS = [
  "tasks",
  "deliveries",
  "data",
  "items",
  "results",
  "locations",
  "fulfilmentLocations",
  "fulfillmentLocations",
] as const

export const LOCATION_LIST_KEYS = [
  "fulfilmentLocations",
  "fulfillmentLocations",
  "locations",
  "data",
  "items",
  "results",
  "tasks",
  "deliveries",
] as const

/** Paging fields may sit on the envelope itself or in one of these groups. */
const PAGING_GROUPS = ["meta", "pagination"] as const

/**
 * The list in `value` (a bare array, or an envelope holding it under one of
 * `keys`) and the envelope's hint at a next page; undefined when there is no
 * list. `requestedPage` is the page number asked for, if one was.
 */
export function readListPage(value: unknown, keys: readonly string[], requestedPage?: number): ListPage | undefined {
  if (Array.isArray(value)) {
    return { items: value }
  }
  if (!isRecord(value)) {
    return undefined
  }
  for (const key of keys) {
    const inner = value[key]
    if (Array.isArray(inner)) {
      const next = nextPageHint(value, requestedPage)
      return next ? { items: inner, next } : { items: inner }
    }
  }
  return undefined
}

/**
 * Whether an envelope says there is more, and where: a `next` link or page
 * number, `page` of `totalPages`, or `hasMore` with the current page.
 */
export function nextPageHint(envelope: Record<string, unknown>, requestedPage?: number): PageHint | undefined {
  const groups = [envelope, ...PAGING_GROUPS.map((key) => envelope[key]).filter(isRecord)]
  for (const group of groups) {
    const links = isRecord(group.links) ? group.links : undefined
    const hal = isRecord(group._links) ? group._links : undefined
    const candidates = [group.next, group.nextPage, group.next_page, links?.next, hal?.next]
    for (const candidate of candidates) {
      const hint = linkOrPage(isRecord(candidate) ? candidate.href : candidate)
      if (hint) {
        return hint
      }
    }
  }
  for (const group of groups) {
    const page = pageNumber(group.page)
    const total = pageNumber(group.totalPages ?? group.total_pages ?? group.pageCount ?? group.pages)
    if (page !== undefined && total !== undefined) {
      if (page < total) {
        return { kind: "page", page: page + 1 }
      }
      continue
    }
    if (group.hasMore === true || group.has_more === true) {
      const current = page ?? requestedPage
      return current === undefined ? { kind: "unknown" } : { kind: "page", page: current + 1 }
    }
  }
  return undefined
}

/** A request of the list, relative to the client's base URL. */
export interface PageRequest {
  /** Path below the base URL's path prefix, e.g. `/fulfilment-locations`. */
  path: string
  query: URLSearchParams
}

export interface PagingContext {
  /** Origin of the base URL: the only one the API key may be sent to. */
  origin: string
  /** Path prefix of the base URL without a trailing slash (`""` when none). */
  basePath: string
  /** The first request of the list: its path and query are kept for page numbers. */
  first: PageRequest
  /** The request whose answer gave the hint: relative links resolve against it. */
  current: PageRequest
}

export type NextPageRequest =
  | { ok: true; request: PageRequest }
  | { ok: false; reason: "other_origin"; origin: string }
  | { ok: false; reason: "unknown_page" | "unreadable_link" }

/**
 * The request for the page a hint points at. A link may be an absolute URL
 * on the same origin, a path, or a bare query (`?page=2`); the base path
 * prefix and the first request's query are kept, and only what the link
 * sets (the page) is replaced. A link to another origin is refused: the
 * request would carry the API key there.
 */
export function nextPageRequest(hint: PageHint, context: PagingContext): NextPageRequest {
  if (hint.kind === "unknown") {
    return { ok: false, reason: "unknown_page" }
  }
  if (hint.kind === "page") {
    const query = new URLSearchParams(context.first.query)
    query.set("page", String(hint.page))
    return { ok: true, request: { path: context.first.path, query } }
  }
  const currentQuery = context.current.query.toString()
  const currentUrl = `${context.origin}${context.basePath}${context.current.path}${currentQuery ? `?${currentQuery}` : ""}`
  let url: URL
  try {
    url = new URL(hint.href, currentUrl)
  } catch {
    return { ok: false, reason: "unreadable_link" }
  }
  if (url.origin !== context.origin) {
    return { ok: false, reason: "other_origin", origin: url.origin }
  }
  const base = context.basePath
  // A service behind a prefixing gateway may link without the prefix.
  const full =
    !base || url.pathname === base || url.pathname.startsWith(`${base}/`) ? url.pathname : `${base}${url.pathname}`
  const query = new URLSearchParams(context.first.query)
  for (const key of new Set(url.searchParams.keys())) {
    query.delete(key)
  }
  for (const [key, value] of url.searchParams) {
    query.append(key, value)
  }
  return { ok: true, request: { path: full.slice(base.length) || "/", query } }
}

/** The page number of a request, when it asked for one. */
export function requestedPage(request: PageRequest): number | undefined {
  return pageNumber(request.query.get("page"))
}

function linkOrPage(value: unknown): PageHint | undefined {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 0 ? { kind: "page", page: value } : undefined
  }
  if (typeof value !== "string" || !value.trim()) {
    return undefined
  }
  const text = value.trim()
  return /^\d+$/.test(text) ? { kind: "page", page: Number(text) } : { kind: "link", href: text }
}

function pageNumber(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 0 ? value : undefined
  }
  if (typeof value === "string" && /^\d+$/.test(value.trim())) {
    return Number(value.trim())
  }
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}
