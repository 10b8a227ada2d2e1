/**
 * The code a shopper shows at the counter (decision 65): six characters from an alphabet without look-alikes, drawn
 * by the platform's cryptographic generator, compared in constant time whatever the shopper typed around it.
 */
import { randomInt, timingSafeEqual } from "node:crypto"

/** No 0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B, 6/G, U/V: what is read aloud or off a screen is what is typed. */
export const CODE_ALPHABET = "ACEFHJKMNPRTWXY3479"

export const CODE_LENGTH = 6

export function newCollectionCode(): string {
  let code = ""
  for (let i = 0; i < CODE_LENGTH; i++) {
    code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]
  }
  return code
}

/** What the merchant typed, as a code: upper case, without spaces, dashes or dots. */
export function normaliseCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s.\-_]+/g, "")
}

/** Whether what was typed is the code; time independent of where they differ. */
export function codeMatches(typed: string, code: string): boolean {
  const a = Buffer.from(normaliseCode(typed))
  const b = Buffer.from(code)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The code as it is shown: two groups of three, easier to read out ("ACE 479"). */
export function shownCode(code: string): string {
  return code.length === CODE_LENGTH ? `${code.slice(0, 3)} ${code.slice(3)}` : code
}
