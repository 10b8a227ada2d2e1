/**
 * What the service says, cleaned where it enters (decision 29): no control or invisible characters, capped strings,
 * links only as absolute http(s) URLs, a dropped one announced by field and scheme.
 */
import { weakSignal } from "../support/weak-signal"
import { LINE_BREAKS, cleanText } from "../support/clean-text"

export { cleanText }

/** The longest string kept from the service, whatever the field. */
export const MAX_SERVICE_TEXT = 1000

/** Caps of the fields people read (a name on one line, a sentence, a status word). */
export const SHOWN_TEXT_CAPS: Readonly<Record<string, number>> = {
  name: 200,
  description: 500,
  value: 100,
  trackingId: 100,
  line1: 200,
  line2: 200,
  city: 100,
  postcode: 40,
  country: 100,
  address_1: 200,
  address_2: 200,
  postal_code: 40,
}

/** The longest link kept. */
export const MAX_LINK_LENGTH = 2048

const LINK_KEY = /(url|link|href)$/i

export interface ServiceTextNotice {
  /** `link`: a link was dropped; `text`: characters were removed or a string was cut. */
  kind: "link" | "text"
  /** Where in the answer, e.g. `trackingUrl`, `rates.2.name`. */
  field: string
  /** Why, without the value (a link's scheme at most). */
  reason: string
}

const cleanings = weakSignal<[notice: ServiceTextNotice]>()

/** Calls `listener` for each cleaning while the listener is alive (hold it as long as its owner). */
export const onServiceTextCleaned = cleanings.on
const announce = cleanings.emit

/** An absolute http(s) URL without credentials, as it may be put in a link; anything else is refused. */
export function checkLink(value: string): { ok: true; href: string } | { ok: false; reason: string } {
  const text = value.trim()
  if (text.length > MAX_LINK_LENGTH) {
    return { ok: false, reason: `longer than ${MAX_LINK_LENGTH} characters` }
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, reason: "not an absolute URL" }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    // The scheme only: the rest may hold anything.
    const scheme = /^[a-z][a-z0-9+.-]{0,20}:$/i.test(url.protocol) ? url.protocol : "another scheme"
    return { ok: false, reason: `not an http(s) link (${scheme})` }
  }
  if (url.username || url.password) {
    return { ok: false, reason: "a link with credentials" }
  }
  return { ok: true, href: url.href }
}

/**
 * A copy of an answer of the service with every string cleaned and every
 * link checked (a refused link's field is left out). Walks without recursion,
 * so no answer can overflow the stack.
 */
export function cleanServiceAnswer(value: unknown): unknown {
  const root: Record<string, unknown> = {}
  const stack: { source: unknown; target: Record<string, unknown> | unknown[]; key: string | number; path: string }[] =
    [{ source: value, target: root, key: "value", path: "" }]
  while (stack.length) {
    const { source, target, key, path } = stack.pop()!
    const put = (cleaned: unknown) => {
      ;(target as Record<string | number, unknown>)[key] = cleaned
    }
    if (typeof source === "string") {
      const field = typeof key === "string" ? key : ""
      if (LINK_KEY.test(field) && path !== "") {
        const link = checkLink(source)
        if (link.ok) {
          put(link.href)
        } else {
          announce({ kind: "link", field: path, reason: link.reason })
          if (Array.isArray(target)) {
            put(null)
          }
        }
        continue
      }
      const cap = SHOWN_TEXT_CAPS[field] ?? MAX_SERVICE_TEXT
      const cleaned = cleanText(source, cap)
      if (cleaned !== source) {
        // A line break read as a space is ordinary text, not worth telling anyone.
        const stripped = cleanText(source, Number.POSITIVE_INFINITY)
        const reasons = [
          ...(stripped !== source.replace(LINE_BREAKS, " ") ? ["control or invisible characters removed"] : []),
          ...(stripped.length > cap ? [`cut to ${cap} characters`] : []),
        ]
        if (reasons.length) {
          announce({ kind: "text", field: path || "(root)", reason: reasons.join(", ") })
        }
      }
      put(cleaned)
      continue
    }
    if (Array.isArray(source)) {
      const copy: unknown[] = new Array(source.length)
      put(copy)
      // Pushed last first, so they are copied in their order.
      for (let index = source.length - 1; index >= 0; index--) {
        stack.push({ source: source[index], target: copy, key: index, path: path ? `${path}.${index}` : String(index) })
      }
      continue
    }
    if (source && typeof source === "object") {
      const copy: Record<string, unknown> = {}
      put(copy)
      for (const [name, inner] of Object.entries(source).reverse()) {
        stack.push({ source: inner, target: copy, key: name, path: path ? `${path}.${name}` : name })
      }
      continue
    }
    put(source)
  }
  return root.value
}
