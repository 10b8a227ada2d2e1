/** Search and paging of Settings → Lastmile's location tables, in the browser over the overview: 25 rows a page. */
import { Button, Input, Text } from "@medusajs/ui"
import { memo, useCallback, useEffect, useMemo, useState, useTransition } from "react"
import { usePaused } from "../../../lib/use-paused"

export const PAGE_SIZE = 25

/** How long typing pauses before the table filters. */
const SEARCH_PAUSE_MS = 100

/** The words of a value a search can match (its strings and numbers, nested ones too), lower-cased. */
export function searchText(...values: unknown[]): string {
  const words: string[] = []
  const walk = (value: unknown, depth: number) => {
    if (typeof value === "string" || typeof value === "number") {
      words.push(String(value))
    } else if (value && typeof value === "object" && depth < 4) {
      for (const inner of Object.values(value)) {
        walk(inner, depth + 1)
      }
    }
  }
  values.forEach((value) => walk(value, 0))
  return words.join(" ").toLowerCase()
}

/**
 * The rows a table shows: those whose text holds every word searched for (any case), a page of them at a time. The
 * text of each row is read once per list, not per keystroke; a new search goes back to the first page. A new page or
 * search is rendered as a transition: the click or the key is answered at once (`pending` while the rows follow), and
 * drawing 25 new rows never holds up the next input.
 */
export function useSearchPaging<T>(items: T[], textOf: (item: T) => string) {
  const [query, setQuery] = useState("")
  const [page, setShownPage] = useState(0)
  const [pending, startTransition] = useTransition()
  const setPage = useCallback((next: number) => startTransition(() => setShownPage(next)), [])
  const index = useMemo(() => items.map((item) => ({ item, text: textOf(item) })), [items, textOf])
  const matched = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean)
    return words.length
      ? index.filter(({ text }) => words.every((w) => text.includes(w))).map(({ item }) => item)
      : items
  }, [index, items, query])
  const pages = Math.max(1, Math.ceil(matched.length / PAGE_SIZE))
  // A list that shrank (a search, a refresh) keeps the page in range.
  const current = Math.min(page, pages - 1)
  const rows = useMemo(() => matched.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE), [matched, current])
  const search = useCallback((typed: string) => {
    startTransition(() => {
      setQuery(typed.trim())
      setShownPage(0)
    })
  }, [])
  return { query, search, rows, page: current, pages, setPage, pending, matched: matched.length, total: items.length }
}

/** The search box: it keeps what is typed itself, so a keystroke re-renders it alone; the table follows on a pause. */
export const SearchBox = memo(function SearchBox({
  label,
  placeholder,
  onSearch,
  testId,
  controls,
}: {
  label: string
  placeholder: string
  onSearch: (query: string) => void
  testId: string
  /** The id of the table it filters. */
  controls: string
}) {
  const [typed, setTyped] = useState("")
  const paused = usePaused(typed, SEARCH_PAUSE_MS)
  useEffect(() => onSearch(paused), [paused, onSearch])
  return (
    <div className="w-full max-w-xs">
      {/* Not type="search": the dashboard's search input draws an unnamed role="img" icon, which axe refuses. */}
      <Input
        type="text"
        enterKeyHint="search"
        size="small"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        onKeyDown={(event) => {
          // Enter searches at once.
          if (event.key === "Enter") {
            onSearch(typed)
          }
        }}
        aria-label={label}
        aria-controls={controls}
        placeholder={placeholder}
        autoComplete="off"
        data-testid={testId}
      />
    </div>
  )
})

/** "N of M locations", "Page X of Y", Previous and Next. */
export function Pager({
  matched,
  total,
  page,
  pages,
  setPage,
  testIdPrefix,
  label,
}: {
  matched: number
  total: number
  page: number
  pages: number
  setPage: (page: number) => void
  /** `lastmile-location`: `…-count`, `…-page`, `…-page-previous`, `…-page-next`. */
  testIdPrefix: string
  /** What the pages are of, for the buttons' names ("service locations"). */
  label: string
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 px-6 py-3">
      <Text size="small" className="text-ui-fg-subtle" role="status" data-testid={`${testIdPrefix}-count`}>
        {matched} of {total} {total === 1 ? "location" : "locations"}
      </Text>
      <div className="flex items-center gap-x-2">
        <Text size="small" className="text-ui-fg-subtle" data-testid={`${testIdPrefix}-page`}>
          Page {page + 1} of {pages}
        </Text>
        <Button
          size="small"
          variant="secondary"
          disabled={page === 0}
          onClick={() => setPage(page - 1)}
          aria-label={`Previous page of ${label}`}
          data-testid={`${testIdPrefix}-page-previous`}
        >
          Previous
        </Button>
        <Button
          size="small"
          variant="secondary"
          disabled={page >= pages - 1}
          onClick={() => setPage(page + 1)}
          aria-label={`Next page of ${label}`}
          data-testid={`${testIdPrefix}-page-next`}
        >
          Next
        </Button>
      </div>
    </div>
  )
}
