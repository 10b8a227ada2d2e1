/**
 * The shopper's note to the courier (`data.delivery_note` when a delivery is chosen): at most 280 characters, cleaned of
 * control and bidi characters; the plugin checks a note by these same rules, so a counter and the server agree.
 */

/** The longest note the plugin keeps, in characters (Unicode code points) once cleaned. */
export const DELIVERY_NOTE_MAX_LENGTH = 280

/** The field's words: its label, and the hint that says what a courier can use. */
export const DELIVERY_NOTE_TEXT = {
  label: "Note for the courier (optional)",
  hint: "Gate code, safe place, a neighbour…",
} as const

const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g
/** C0 and C1 controls, left once line breaks are spaces. */
const CONTROLS = /\p{Cc}/gu
/** Marks and embeddings that reorder text (a reversed gate code reads as another code). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** The note as it is kept: line breaks as spaces, no control or bidi characters, spaces collapsed, trimmed. */
export function cleanDeliveryNote(text: string): string {
  return text
    .normalize("NFC")
    .replace(LINE_BREAKS, " ")
    .replace(CONTROLS, "")
    .replace(BIDI, "")
    .replace(/ {2,}/g, " ")
    .trim()
}

/** How many characters of the note count against the limit (after cleaning). */
export function deliveryNoteLength(text: string): number {
  return [...cleanDeliveryNote(text)].length
}

/**
 * The counter beside the field, as a sighted shopper and a screen reader both read it: "You have 268 characters
 * remaining", "You have 1 character too many".
 */
export function deliveryNoteCounterText(text: string): string {
  const left = DELIVERY_NOTE_MAX_LENGTH - deliveryNoteLength(text)
  const characters = (n: number) => `${n} character${n === 1 ? "" : "s"}`
  return left >= 0 ? `You have ${characters(left)} remaining` : `You have ${characters(-left)} too many`
}

/** Why a note cannot be sent as it is, naming the field and its limit; null when it can. */
export function deliveryNoteProblem(text: string): string | null {
  const length = deliveryNoteLength(text)
  return length > DELIVERY_NOTE_MAX_LENGTH
    ? `The note for the courier is ${length} characters long: it can be at most ${DELIVERY_NOTE_MAX_LENGTH}.`
    : null
}
