/**
 * A collection's code as the shopper shows it at the store's counter: the characters as they are (so a copy is the
 * code), and as a screen reader should say them, one by one.
 */

export interface LastmileCollectionCodeText {
  /** "Collection code": the code's label. */
  label: string
  /** The code as shown and copied: "ACE479" (no space or dash added: what is copied is what the store types). */
  text: string
  /** The code read out character by character, for a screen reader: "A C E 4 7 9". */
  spokenText: string
  /** What to do with it: "Show it at the counter: the store hands your order to whoever has it." */
  hint: string
}

export const COLLECTION_CODE_TEXT = {
  label: "Collection code",
  hint: "Show it at the counter: the store hands your order to whoever has it.",
} as const

/** The code's words, or null without a code. */
export function describeCollectionCode(code: string | null | undefined): LastmileCollectionCodeText | null {
  const text = (code ?? "").replace(/\s+/g, "").toUpperCase()
  if (!text) {
    return null
  }
  return { label: COLLECTION_CODE_TEXT.label, text, spokenText: spellOut(text), hint: COLLECTION_CODE_TEXT.hint }
}

/** "ACE479" → "A C E 4 7 9": each character on its own, so "ACE" is not read as a word nor "479" as a number. */
export function spellOut(code: string): string {
  return [...code].join(" ")
}
