/**
 * A collection's code as the shopper shows it at the store's counter: as the plugin's messages write it (two groups of
 * three), as it is copied (its characters alone), and as a screen reader should say it, one character at a time.
 */

export interface LastmileCollectionCodeText {
  /** "Collection code": the code's label. */
  label: string
  /** The code's characters alone, "ACE479": what to copy (the store's field reads it with or without the space). */
  code: string
  /** As the messages write it, "ACE 479": two groups of three, easier to read out. */
  text: string
  /** The groups, ["ACE", "479"], to draw apart (a margin between them) so that a copy of the code is `code`. */
  groups: string[]
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
export function describeCollectionCode(value: string | null | undefined): LastmileCollectionCodeText | null {
  const code = (value ?? "").replace(/\s+/g, "").toUpperCase()
  if (!code) {
    return null
  }
  const groups = code.length === 6 ? [code.slice(0, 3), code.slice(3)] : [code]
  return {
    label: COLLECTION_CODE_TEXT.label,
    code,
    text: groups.join(" "),
    groups,
    spokenText: spellOut(code),
    hint: COLLECTION_CODE_TEXT.hint,
  }
}

/** "ACE479" → "A C E 4 7 9": each character on its own, so "ACE" is not read as a word nor "479" as a number. */
export function spellOut(code: string): string {
  return [...code].join(" ")
}
