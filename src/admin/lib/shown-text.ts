/**
 * Text from the service as the admin shows it, guarded again after the cleaning where it enters (decision 29): no control
 * or invisible characters, a length that cannot stretch the page, links only http(s).
 */
import type { CSSProperties } from "react"

const HIDDEN = /[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g

/** A long word (a code, a link) wraps inside its box instead of widening the page. */
export const WRAP_ANYWHERE: CSSProperties = { overflowWrap: "anywhere" }

export function shown(text: string | null | undefined, max = 200): string {
  const clean = (text ?? "").replace(HIDDEN, "")
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

/** The link when it is an absolute http(s) URL, else undefined (a `javascript:` link is never rendered). */
export function httpLink(href: string | null | undefined): string | undefined {
  if (!href) {
    return undefined
  }
  try {
    const url = new URL(href)
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined
  } catch {
    return undefined
  }
}
