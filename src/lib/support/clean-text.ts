/** Text from outside (the service, a merchant's form) as it may be shown: decision 29's cleaning, with no domain. */

/** The longest string kept unless a caller says otherwise. */
export const MAX_TEXT = 1000

/** C0 and C1 controls and DEL, but the whitespace ones, which become spaces. */
const CONTROLS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F]/g
export const LINE_BREAKS = /[\t\n\f\r\u000B\u2028\u2029]+/g
/** Bidi embeddings, overrides, isolates and marks; zero-width space, word joiner, BOM; invisible separators. */
const INVISIBLE = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** A string as it may be shown: no controls, nothing invisible that reorders it, at most `max` characters. */
export function cleanText(value: string, max: number = MAX_TEXT): string {
  let text = value
    .replace(LONE_SURROGATE, "\uFFFD")
    .replace(LINE_BREAKS, " ")
    .replace(CONTROLS, "")
    .replace(INVISIBLE, "")
  if (text.length > max) {
    let end = max - 1
    // Never split a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? "")) {
      end -= 1
    }
    text = `${text.slice(0, end).trimEnd()}…`
  }
  return text
}
