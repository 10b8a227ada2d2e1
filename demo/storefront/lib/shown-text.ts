/**
 * What the lastmile service says, as the demo shop shows it: cleaned by the plugin where it enters (decision 29), and
 * still capped here (with CSS that wraps a long word), so no store name can stretch the page.
 */
import type { CSSProperties } from "react"

const HIDDEN = /[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g

/** A long word wraps inside its box instead of widening the page. */
export const WRAP_ANYWHERE: CSSProperties = { overflowWrap: "anywhere" }

export function shown(text: string | null | undefined, max = 200): string {
  const clean = (text ?? "").replace(HIDDEN, "")
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}
