import { LOCATION_LIST_KEYS, type PageRequest, TASK_LIST_KEYS, nextPageRequest, readListPage } from "../pagination"

const ORIGIN = "https://api.lastmile.test"
const first: PageRequest = { path: "/v1/task/deliveries", query: new URLSearchParams({ merchantOrderId: "order_1" }) }
const context = (current: PageRequest = first) => ({ origin: ORIGIN, first, current })
const target = (result: ReturnType<typeof nextPageRequest>) =>
  result.ok ? `${result.request.path}?${result.request.query.toString()}` : result

describe("readListPage", () => {
  it("reads a bare list as the only page", () => {
    expect(readListPage([1, 2], LOCATION_LIST_KEYS)).toEqual({ items: [1, 2] })
  })

  it("reads an envelope's list and its next link; null or absent is the last page", () => {
    expect(readListPage({ data: [1], next: "/v1/fulfilment-locations?page=2" }, LOCATION_LIST_KEYS)).toEqual({
      items: [1],
      next: "/v1/fulfilment-locations?page=2",
    })
    expect(readListPage({ tasks: [1], next: null }, TASK_LIST_KEYS)).toEqual({ items: [1] })
    expect(readListPage({ fulfilmentLocations: [1] }, LOCATION_LIST_KEYS)).toEqual({ items: [1] })
  })

  it("guesses no other paging form: counters and flags leave a single page", () => {
    for (const envelope of [
      { data: [1], page: 1, totalPages: 3 },
      { data: [1], hasMore: true },
      { data: [1], next: 2 },
      { data: [1], links: { next: "?page=2" } },
    ]) {
      expect(readListPage(envelope, LOCATION_LIST_KEYS)).toEqual({ items: [1] })
    }
  })

  it("finds no list in an envelope without one", () => {
    expect(readListPage({ oops: true }, LOCATION_LIST_KEYS)).toBeUndefined()
    expect(readListPage("text", LOCATION_LIST_KEYS)).toBeUndefined()
  })
})

describe("nextPageRequest", () => {
  it("resolves a bare query against the current request, keeping the first request's query", () => {
    expect(target(nextPageRequest("?page=2", context()))).toBe("/v1/task/deliveries?merchantOrderId=order_1&page=2")
  })

  it("replaces only what the link sets", () => {
    const current = { path: first.path, query: new URLSearchParams({ merchantOrderId: "order_1", page: "2" }) }
    expect(target(nextPageRequest("?page=3&limit=50", context(current)))).toBe(
      "/v1/task/deliveries?merchantOrderId=order_1&page=3&limit=50"
    )
  })

  it("follows a path or an absolute URL on the service's origin as it is written", () => {
    expect(target(nextPageRequest("/v1/task/deliveries?page=2", context()))).toBe(
      "/v1/task/deliveries?merchantOrderId=order_1&page=2"
    )
    expect(target(nextPageRequest(`${ORIGIN}/v1/task/deliveries?page=2`, context()))).toBe(
      "/v1/task/deliveries?merchantOrderId=order_1&page=2"
    )
    expect(target(nextPageRequest("page-2", context()))).toBe("/v1/task/page-2?merchantOrderId=order_1")
  })

  it("refuses a link to another origin, however it is spelt", () => {
    for (const href of [
      "https://evil.test/task/deliveries?page=2",
      "//evil.test/task/deliveries?page=2",
      "http://api.lastmile.test/task/deliveries?page=2",
      "https://api.lastmile.test:8443/task/deliveries?page=2",
    ]) {
      expect(nextPageRequest(href, context())).toMatchObject({ ok: false, reason: "other_origin" })
    }
  })

  it("refuses a link it cannot read", () => {
    expect(nextPageRequest("http://[::1", context())).toEqual({ ok: false, reason: "unreadable_link" })
  })
})
