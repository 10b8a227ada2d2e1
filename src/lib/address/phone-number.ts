/**
 * Phone numbers in the international format the service requires, read with
 * libphonenumber-js using the address's country for numbers written locally.
 */
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js"

export type PhoneResult = { ok: true; e164: string } | { ok: false; reason: "missing" | "invalid" }

export function normalisePhoneNumber(raw: string | null | undefined, countryCode?: string | null): PhoneResult {
  const value = raw?.trim()
  if (!value) {
    return { ok: false, reason: "missing" }
  }
  const country = countryCode ? (countryCode.toUpperCase() as CountryCode) : undefined
  const parsed = parsePhoneNumberFromString(value, country)
  if (!parsed || !parsed.isValid()) {
    return { ok: false, reason: "invalid" }
  }
  return { ok: true, e164: parsed.number }
}
