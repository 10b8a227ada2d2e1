import { LOCATION_LIST_KEYS, type PageRequest, nextPageHint, nextPageRequest, readListPage } from "../pagination"

const ORIGIN = "https://api.lastmile.test"
const first: PageRequest = { path: "/task/deliveries", query: new URLSearchParams({ merchantOrderId: "order_1" }) }
const context = (basePath = "", current: PageRequest = first) => ({ origin: ORIGIN, basePath, first, current })
const target = (result: ReturnType<typeof nextPageRequest>) =>
  result.ok ? `${result.request.path}?${result.request.query.toString()}` : result

describe("nextPageHint", () => {
  it.each([
    [{ next: "?page=2" }, { kind: "link", href: "?page=2" }],
    [{ nextPage: "/x?page=2" }, { kind: "link", href: "/x?page=2" }],
    [{ next_page: `${ORIGIN}/x?page=2` }, { kind: "link", href: `${ORIGIN}/x?page=2` }],
    [{ links: { next: "?page=2" } }, { kind: "link", href: "?page=2" }],
    [{ links: { next: { href: "?page=2" } } }, { kind: "link", href: "?page=2" }],
    [{ _links: { next: { href: "?page=2" } } }, { kind: "link", href: "?page=2" }],
    [{ next: 3 }, { kind: "page", page: 3 }],
    [{ nextPage: "3" }, { kind: "page", page: 3 }],
    [
      { page: 1, totalPages: 3 },
      { kind: "page", page: 2 },
    ],
    [
      { page: 2, total_pages: 3 },
      { kind: "page", page: 3 },
    ],
    [
      { page: "1", pageCount: 2 },
      { kind: "page", page: 2 },
    ],
    [
      { page: 1, pages: 2 },
      { kind: "page", page: 2 },
    ],
    [
      { page: 4, hasMore: true },
      { kind: "page", page: 5 },
    ],
    [
      { page: 1, has_more: true },
      { kind: "page", page: 2 },
    ],
    [{ meta: { page: 1, totalPages: 2 } }, { kind: "page", page: 2 }],
    [{ pagination: { next: "?page=2" } }, { kind: "link", href: "?page=2" }],
    [{ hasMore: true }, { kind: "unknown" }],
  ])("reads %j as more to come", (envelope, hint) => {
    expect(nextPageHint(envelope)).toEqual(hint)
  })

  it.each([
    [{ next: null }],
    [{ next: "" }],
    [{ links: { next: null } }],
    [{ page: 3, totalPages: 3 }],
    [{ page: 1, hasMore: false }],
    [{ total: 12 }],
    [{}],
  ])("reads %j as the last page", (envelope) => {
    expect(nextPageHint(envelope)).toBeUndefined()
  })

  it("uses the page asked for when hasMore comes without a page number", () => {
    expect(nextPageHint({ hasMore: true }, 2)).toEqual({ kind: "page", page: 3 })
  })

  it("gives no hint for a bare array", () => {
    expect(readListPage([1, 2], LOCATION_LIST_KEYS)).toEqual({ items: [1, 2] })
  })
})

describe("nextPageRequest", () => {
  it("asks a page number on the first request's path, keeping its query", () => {
    expect(target(nextPageRequest({ kind: "page", page: 2 }, context("/v1")))).toBe(
      "/task/deliveries?merchantOrderId=order_1&page=2"
    )
  })

  it("resolves a bare query against the current request, keeping the original query", () => {
    expect(target(nextPageRequest({ kind: "link", href: "?page=2" }, context("/v1")))).toBe(
      "/task/deliveries?merchantOrderId=order_1&page=2"
    )
  })

  it("replaces only what the link sets", () => {
    const current = { path: first.path, query: new URLSearchParams({ merchantOrderId: "order_1", page: "2" }) }
    expect(target(nextPageRequest({ kind: "link", href: "?page=3&limit=50" }, context("", current)))).toBe(
      "/task/deliveries?merchantOrderId=order_1&page=3&limit=50"
    )
  })

  it("keeps the base path prefix whether the link carries it or not", () => {
    expect(target(nextPageRequest({ kind: "link", href: "/v1/task/deliveries?page=2" }, context("/v1")))).toBe(
      "/task/deliveries?merchantOrderId=order_1&page=2"
    )
    expect(target(nextPageRequest({ kind: "link", href: "/task/deliveries?page=2" }, context("/v1")))).toBe(
      "/task/deliveries?merchantOrderId=order_1&page=2"
    )
    expect(target(nextPageRequest({ kind: "link", href: `${ORIGIN}/v1/task/deliveries?page=2` }, context("/v1")))).toBe(
      "/task/deliveries?merchantOrderId=order_1&page=2"
    )
  })

  it("refuses a link to another origin, however it is spelt", () => {
    for (const href of [
      "https://evil.test/task/deliveries?page=2",
      "//evil.test/task/deliveries?page=2",
      "http://api.lastmile.test/task/deliveries?page=2",
      "https://api.lastmile.test:8443/task/deliveries?page=2",
    ]) {
      expect(nextPageRequest({ kind: "link", href }, context())).toMatchObject({ ok: false, reason: "other_origin" })
    }
  })

  it("cannot follow 'more' without a page", () => {
    expect(nextPageRequest({ kind: "unknown" }, context())).toEqual({ ok: false, reason: "unknown_page" })
  })
})
