/**
 * A shopper's name as a message may write it (decision 60): one line of at most 60 characters, and none that carries
 * a link or an address, so a shop's messages cannot relay someone else's text. */

export const NAME_MAX_LENGTH = 60

// Control characters and the marks that reorder text (bidi overrides and isolates, zero-width joiners).
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g

/** The first line of what was typed, invisible marks out, spaces collapsed, cut to 60 characters; null when empty. */
export function oneLineName(raw: string | null | undefined): string | null {
  const firstLine = (raw ?? "").split(/[\r\n\u2028\u2029\u0085]/)[0] ?? ""
  const line = firstLine.replace(INVISIBLE, "").replace(/\s+/g, " ").trim()
  const cut = [...line].slice(0, NAME_MAX_LENGTH).join("").trim()
  return cut || null
}

const LINK = /(:\/\/|www\.|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b)/i
const EMAIL = /@/

/** Whether a name carries a web or email address. */
export function carriesLinkOrAddress(name: string): boolean {
  return LINK.test(name) || EMAIL.test(name)
}

/** The name a message may write: one line, and none at all when it carries a link or an address. */
export function nameForMessage(raw: string | null | undefined): string | null {
  const name = oneLineName(raw)
  return name && !carriesLinkOrAddress(name) ? name : null
}
