import { parseLocationItems, parseQuote, parseTask, readLocationsPage, readTaskLookupPage } from "../schemas"

/** The client's reads of one page: the lookup's (each task parsed, an unreadable one failing it) and the locations'. */
const parseTaskLookup = (value: unknown) => readTaskLookupPage(value).items.map((item) => parseTask(item))
const parseLocations = (value: unknown) => parseLocationItems(readLocationsPage(value).items)
import { type ServiceTextNotice, checkLink, cleanText, onServiceTextCleaned } from "../service-text"

const RLO = "\u202E"

describe("what the service says, as it may be shown", () => {
  const notices: ServiceTextNotice[] = []
  // Held for the file's life: the signal holds listeners weakly.
  const listener = (notice: ServiceTextNotice) => notices.push(notice)
  onServiceTextCleaned(listener)
  beforeEach(() => {
    notices.length = 0
  })

  it("keeps only absolute http(s) links without credentials", () => {
    expect(checkLink(" https://track.example/LM1?x=1 ")).toEqual({ ok: true, href: "https://track.example/LM1?x=1" })
    expect(checkLink("HTTP://Track.Example/a")).toEqual({ ok: true, href: "http://track.example/a" })
    for (const [link, reason] of [
      ["javascript:alert(1)", "not an http(s) link (javascript:)"],
      ["JaVaScRiPt:alert(1)", "not an http(s) link (javascript:)"],
      ["data:text/html,<script>alert(1)</script>", "not an http(s) link (data:)"],
      ["vbscript:msgbox", "not an http(s) link (vbscript:)"],
      ["/track/LM1", "not an absolute URL"],
      ["//evil.example/x", "not an absolute URL"],
      ["https://user:pass@track.example/", "a link with credentials"],
      [`https://track.example/${"a".repeat(3000)}`, "longer than 2048 characters"],
    ]) {
      expect({ link: link.slice(0, 40), check: checkLink(link) }).toEqual({
        link: link.slice(0, 40),
        check: { ok: false, reason },
      })
    }
  })

  it("removes controls and the characters that reorder or hide text, and caps what is long", () => {
    expect(cleanText(`Camden${RLO}erots\u202C store`)).toBe("Camdenerots store")
    expect(cleanText("a\u2066b\u2069c\u200Fd\u200Be\uFEFFf\u061Cg")).toBe("abcdefg")
    expect(cleanText("line\r\nbreak\ttab\u0000nul\u0007bell\u009Bcsi")).toBe("line break tabnulbellcsi")
    expect(cleanText("lone \uD800 surrogate")).toBe("lone \uFFFD surrogate")
    // Emoji (surrogate pairs and the zero-width joiner) are text, not tricks.
    expect(cleanText("👩‍👩‍👧 café")).toBe("👩‍👩‍👧 café")
    const long = cleanText("x".repeat(20_000), 200)
    expect(long).toHaveLength(200)
    expect(long.endsWith("…")).toBe(true)
    // A cut never leaves half a surrogate pair.
    const pairs = cleanText("😀".repeat(150), 200)
    expect(pairs.endsWith("…")).toBe(true)
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(pairs)).toBe(false)
  })

  it("drops a task's link that is not http(s), and says which field and scheme, never the link", () => {
    const task = parseTask({
      taskId: 7,
      trackingId: `LM${RLO}7`,
      trackingUrl: "javascript:alert(document.cookie)//secret-token",
      status: { value: `DELIVERED${RLO}` },
    })
    expect(task).toEqual({ taskId: 7, trackingId: "LM7", status: { value: "DELIVERED" } })
    expect(notices).toContainEqual({ kind: "link", field: "trackingUrl", reason: "not an http(s) link (javascript:)" })
    expect(JSON.stringify(notices)).not.toContain("secret-token")
    // The lookup reads tasks the same way; a good link is kept as it came.
    const [found] = parseTaskLookup([{ taskId: 8, trackingUrl: "https://track.example/LM8" }])
    expect(found.trackingUrl).toBe("https://track.example/LM8")
  })

  it("cleans a quote's rates and a location's name and address, any field, at any depth", () => {
    const quote = parseQuote({
      eligibility: `FULL${RLO}`,
      rates: [
        {
          rateCode: "SVC_COL",
          name: `${RLO}erots nedmaC`,
          description: `Collect from ${"Camden ".repeat(3000)}`,
          price: 250,
          error: { code: "X", helpUrl: "javascript:alert(1)", detail: `a\u0000b` },
        },
      ],
    })
    expect(quote.eligibility).toBe("FULL")
    expect(quote.rates[0].name).toBe("erots nedmaC")
    expect(quote.rates[0].description).toHaveLength(500)
    expect(quote.rates[0].error).toEqual({ code: "X", detail: "ab" })
    expect(notices).toContainEqual(expect.objectContaining({ kind: "link", field: "rates.0.error.helpUrl" }))

    const { locations } = parseLocations([
      {
        fulfilmentLocationId: 1,
        collectionEnabled: true,
        name: `${RLO}Camden ${"x".repeat(20_000)}`,
        address: { line1: `201 Camden High Street${RLO}`, city: "London", postcode: "NW1 7JN", country: "UK" },
        website: { url: "data:text/html,hi" },
      },
    ])
    expect(locations[0].name).toHaveLength(200)
    expect(locations[0].name?.startsWith("Camden x")).toBe(true)
    expect(locations[0].address).toEqual({
      line1: "201 Camden High Street",
      city: "London",
      postcode: "NW1 7JN",
      country: "UK",
    })
    expect(locations[0].website).toEqual({})
    expect(notices).toContainEqual({
      kind: "text",
      field: "name",
      reason: "control or invisible characters removed, cut to 200 characters",
    })
  })

  it("reads a line break as a space without telling anyone", () => {
    expect(parseTask({ taskId: 2, status: { value: "OUT FOR\nDELIVERY" } }).status?.value).toBe("OUT FOR DELIVERY")
    expect(notices).toEqual([])
  })

  it("walks an answer of any depth without recursion, and keeps the fields' order", () => {
    let deep: unknown = { end: `a${RLO}` }
    for (let i = 0; i < 50_000; i++) {
      deep = { inner: deep }
    }
    const task = parseTask({ taskId: 1, b: 1, a: 2, deep })
    expect(Object.keys(task)).toEqual(["taskId", "b", "a", "deep"])
  })
})
