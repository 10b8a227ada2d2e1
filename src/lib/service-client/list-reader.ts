/** A list of the service read to its end, page by page, following next links (pagination.ts) on its origin only. */
import { LastmileRejectedError } from "./errors"
import { type ListPage, type PageRequest, nextPageRequest } from "./pagination"
import { type SendInit, type ServiceTransport, parseAnswer } from "./transport"

/** Most pages read of one list; a longer list is cut there, with a warning. */
export const MAX_LIST_PAGES = 20

export type ListRead = Pick<SendInit, "operation" | "path" | "timeoutMs" | "signal"> & {
  query?: Record<string, string>
  readPage: (json: unknown) => ListPage
}

/**
 * Every item of a list, following each page's next link to the last page,
 * at most MAX_LIST_PAGES. A 404 or an empty answer after the first page
 * ends the list; a link back to a page already read ends it too.
 */
export async function readList(
  read: ListRead,
  transport: ServiceTransport,
  warnOnce: (key: string, message: string) => void
): Promise<unknown[]> {
  const { origin, basePath } = transport.config
  const first: PageRequest = { path: `${basePath}${read.path}`, query: new URLSearchParams(read.query) }
  const items: unknown[] = []
  const asked = new Set<string>([`${first.path}?${first.query}`])
  let current = first
  for (let pages = 1; ; pages++) {
    let json: unknown
    try {
      const { path: fullPath, query } = current
      const { operation, path, timeoutMs, signal } = read
      json = await transport.send({ operation, method: "GET", path, fullPath, query, timeoutMs, signal, read: true })
    } catch (error) {
      if (pages > 1 && error instanceof LastmileRejectedError && error.status === 404) {
        break
      }
      throw error
    }
    if (pages > 1 && (json === undefined || json === null || json === "")) {
      break
    }
    const page = parseAnswer(`GET ${read.path}`, json, read.readPage)
    items.push(...page.items)
    if (!page.next) {
      break
    }
    if (pages >= MAX_LIST_PAGES) {
      const cut = `has more than ${MAX_LIST_PAGES} pages; only the first ${MAX_LIST_PAGES} were read`
      warnOnce(`pages:${read.operation}`, `lastmile: GET ${read.path} ${cut}`)
      break
    }
    const next = nextPageRequest(page.next, { origin, first, current })
    if (!next.ok) {
      const why =
        next.reason === "other_origin"
          ? `its next page is on another origin (${next.origin}), where the API key must not go`
          : "its next-page link cannot be read"
      warnOnce(
        `next:${read.operation}:${next.reason}`,
        `lastmile: stopped reading GET ${read.path} after ${pages} page(s): ${why}`
      )
      break
    }
    const key = `${next.request.path}?${next.request.query}`
    if (asked.has(key)) {
      break
    }
    asked.add(key)
    current = next.request
  }
  return items
}
