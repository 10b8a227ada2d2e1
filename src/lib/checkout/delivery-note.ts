/**
 * The shopper's note to the courier as a choice carries it (`data.delivery_note`), by the storefront package's rules,
 * held equal by this folder's spec so a storefront's counter and the server agree (decision 62).
 */
import { methodKindOf, readShippingMethodData } from "../contracts/plugin-data"

export const DELIVERY_NOTE_MAX_LENGTH = 280

const LINE_BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g
const CONTROLS = /\p{Cc}/gu
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

/** What a choice says of the note: nothing (the cart's note stays), a note (null removes it), or why not. */
export type DeliveryNoteAsked = { keep: true } | { note: string | null } | { problem: string }

/** The note a choice's `data` carries, for a delivery or a store (which has no courier to read one). */
export function readDeliveryNote(
  data: Record<string, unknown> | null | undefined,
  kind: "delivery" | "collection"
): DeliveryNoteAsked {
  const raw = data?.delivery_note
  if (raw === undefined) {
    return { keep: true }
  }
  if (raw !== null && typeof raw !== "string") {
    return {
      problem: `delivery_note must be text: the shopper's note to the courier, at most ${DELIVERY_NOTE_MAX_LENGTH} characters.`,
    }
  }
  const note = raw === null ? "" : cleanDeliveryNote(raw)
  if (!note) {
    return { note: null }
  }
  if (kind === "collection") {
    return {
      problem:
        "delivery_note goes with a delivery: a collection from a store has no courier to read it. Choose the store without a note.",
    }
  }
  const length = [...note].length
  if (length > DELIVERY_NOTE_MAX_LENGTH) {
    return {
      problem: `delivery_note is ${length} characters long: a note to the courier can be at most ${DELIVERY_NOTE_MAX_LENGTH} characters.`,
    }
  }
  return { note }
}

/**
 * The note the cart's delivery method holds, which a new choice keeps when it says nothing of it: Medusa replaces the
 * method when the shopper chooses again (another rate, another delivery option).
 */
export function heldDeliveryNote(methods: readonly ({ data?: unknown } | null)[] | null | undefined): string | null {
  for (const method of [...(methods ?? [])].reverse()) {
    const data = readShippingMethodData(method?.data)
    if (data && methodKindOf(data) === "delivery" && data.deliveryNote) {
      return data.deliveryNote
    }
  }
  return null
}

/** The note a delivery's method is to hold: the one asked for, else the one the cart holds. */
export function deliveryNoteFor(
  asked: Exclude<DeliveryNoteAsked, { problem: string }>,
  methods: readonly ({ data?: unknown } | null)[] | null | undefined
): string | null {
  return "note" in asked ? asked.note : heldDeliveryNote(methods)
}
